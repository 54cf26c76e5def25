// The wardrobe's schemas: the listing, and the calls that wear, take off and remove an item.
import { z } from 'zod';
import { WARDROBE_ITEM_ID_PATTERN, wardrobeMessages, wardrobeNameMessage } from '../wardrobe-rules';

/** A wardrobe item's kind: what slot it fills. */
const wardrobeKindSchema = z.enum(['cape', 'ears']);

/** One item of a player's wardrobe. */
export const wardrobeItemSchema = z
  .object({
    id: z.string().meta({ description: 'Opaque; use it to wear, take off or remove the item' }),
    kind: wardrobeKindSchema,
    texture: z.string().meta({ description: 'The still picture’s address (an animation’s first frame)' }),
    animated_texture: z
      .string()
      .nullable()
      .meta({ description: 'An animated cape’s strip (frames of width x width/2 stacked vertically), or null' }),
    source: z.enum(['upload', 'creator', 'gallery']),
    gallery_hash: z.string().nullable().meta({ description: 'The gallery item it was worn from, or null' }),
    title: z.string().nullable().meta({ description: 'The gallery item’s title; null for uploads and creations' }),
    name: z.string().nullable().meta({
      description:
        'The name the player gave the item, or the uploaded file’s name; null when it has none (call it by its title, or by what it is and when it came in)',
    }),
    added_at: z.number().int().meta({ description: 'When it came into the wardrobe, in ms since 1970' }),
    worn: z.boolean().meta({ description: 'Whether the player wears it now' }),
  })
  .meta({ id: 'WardrobeItem' });

/** GET /api/wardrobe, and the answer of every wardrobe change: the items, newest first. */
export const wardrobeSchema = z
  .object({
    items: z.array(wardrobeItemSchema),
    limit: z.number().int().meta({ description: 'How many items the wardrobe keeps' }),
    dropped: z
      .object({
        kind: wardrobeKindSchema,
        title: z.string().nullable(),
        added_at: z.number().int(),
        dropped_at: z.number().int(),
      })
      .nullable()
      .meta({ description: 'The last item a full wardrobe let go (in the last 7 days), or null' }),
  })
  .meta({ id: 'Wardrobe' });

/** The body of the calls on one wardrobe item. */
export const wardrobeItemBodySchema = z.object({
  id: z.string().regex(WARDROBE_ITEM_ID_PATTERN, { message: wardrobeMessages.badId }),
});

/** The body of renaming a wardrobe item: the item and its new name (empty takes the name away). */
export const wardrobeRenameBodySchema = wardrobeItemBodySchema.extend({
  name: z
    .string()
    .superRefine((name, context) => {
      const message = wardrobeNameMessage(name);
      if (message) context.addIssue({ code: 'custom', message });
    })
    .transform((name) => name.trim())
    .meta({ description: 'The new name, trimmed; empty takes the name away' }),
});
