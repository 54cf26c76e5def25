// The gallery schemas: items, pages, the listing's query, and the report, edit, like and upload calls.
import { z } from 'zod';
import {
  DEFAULT_GALLERY_SORT,
  GALLERY_SORTS,
  GALLERY_TITLE_MAX,
  GALLERY_TITLE_PATTERN,
  GALLERY_TYPES,
  galleryMessages,
  type GalleryTypeName,
} from '../gallery-rules';
import { GALLERY_TAG_KEY_PATTERN, GALLERY_TAGS_MAX, uniqueValues } from '../gallery-query';
import { pageSchema, reportReasonFields } from './common';
import { optionalPlayerUuidField, textureHashSchema } from './ids';
import { uploadNoticeSchema } from './uploads';

/** A gallery tag's key (`pixel-art`). */
const tagKeySchema = z.string().regex(GALLERY_TAG_KEY_PATTERN, { message: galleryMessages.unknownTag });
/** A gallery tag. */
export const tagSchema = z.object({ tag_key: z.string(), name: z.string() }).meta({ id: 'Tag' });
/** GET /api/gallery/tags: every gallery tag. */
export const tagsSchema = z.array(tagSchema);
/** One gallery item. */
export const galleryItemSchema = z
  .object({
    hash: z.string(),
    title: z.string(),
    author: z.string().meta({ description: "The author's uuid" }),
    author_name: z.string(),
    type: z.number().int().meta({ description: '0 cape, 1 ears, 2 animated cape' }),
    animated: z.boolean(),
    texture: z.string().meta({
      description: 'The texture PNG, relative to the API host: the still image, or for an animated cape its strip',
    }),
    animated_texture: z
      .string()
      .nullable()
      .meta({ description: 'The animated strip (frames of width x width/2 stacked vertically, 100 ms each), or null' }),
    tags: z.array(tagSchema),
    whitelisted: z.boolean(),
    user_liked: z.boolean(),
    user_wears: z
      .boolean()
      .meta({ description: 'Whether the logged-in player wears this picture now (false when nobody is logged in)' }),
    total_user_likes: z.number().int(),
    downloads: z.number().int(),
    wears: z
      .number()
      .int()
      .meta({ description: 'How many players put the item on with "Wear this" (each counted once)' }),
    wearers: z.number().int().optional().meta({
      description:
        'How many players wear the picture now (those a moderator’s Delete takes it off); only GET /api/gallery/{hash}, and only to moderators',
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'GalleryItem' });
/**
 * What "Wear this" answers: the slot the item filled, its picture's URL as an upload answers it, and the item's wears
 * since.
 */
export const galleryWearResultSchema = z
  .object({ success: z.literal(true), slot: z.enum(['cape', 'ears']), url: z.string(), wears: z.number().int() })
  .meta({ id: 'GalleryWearResult' });
/** One page of gallery items. */
export const galleryPageSchema = z
  .object({
    data: z.array(galleryItemSchema),
    total: z.number().int().meta({
      description: 'How many items match; when total_capped, at least this many (a search counts up to 1,000)',
    }),
    total_capped: z.boolean(),
    per_page: z.number().int(),
    current_page: z.number().int(),
  })
  .meta({ id: 'GalleryPage' });
/** What GET /api/gallery/user/{uuid} answers: the player and a page of their uploads. */
export const userGallerySchema = z
  .object({ user: z.object({ username: z.string(), uuid: z.string() }), gallery: galleryPageSchema })
  .meta({ id: 'UserGallery' });

/** A query parameter that carries a list as JSON text (`["cape","ears"]`); empty is no list. */
function jsonListParam<T extends z.ZodType>(
  item: T,
  max: number,
  message: string,
  description: string,
  example: string,
) {
  return z
    .string({ message })
    .transform((text) => (text === '' ? [] : jsonList(text)))
    .pipe(z.array(item, { message }).max(max))
    .optional()
    .meta({ description, example });
}

/**
 * Reads a list sent as JSON text (query strings and form fields carry lists that way); anything unreadable fails the
 * list check.
 */
function jsonList(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || value === '') return [];
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
const typeNames = Object.keys(GALLERY_TYPES) as [GalleryTypeName, ...GalleryTypeName[]];

/**
 * GET /api/gallery/get's query (`type` and `tags` are JSON lists); it parses into the listing's canonical filters,
 * deduplicated once here.
 */
export const galleryListQuerySchema = z
  .object({
    page: pageSchema,
    user: optionalPlayerUuidField('The user must be a player uuid.')
      .optional()
      .meta({ description: "Only this player's uploads (their uuid)" }),
    title: z
      .string()
      .max(GALLERY_TITLE_MAX)
      .regex(GALLERY_TITLE_PATTERN, { message: galleryMessages.titleCharacters })
      .optional(),
    sortBy: z
      .enum(GALLERY_SORTS, { message: `sortBy must be one of ${GALLERY_SORTS.join(', ')}` })
      .default(DEFAULT_GALLERY_SORT),
    type: jsonListParam(
      z.enum(typeNames),
      3,
      'type must be a JSON list of cape, ears or animated',
      'JSON list of texture types: cape, ears, animated',
      '["cape","animated"]',
    ),
    tags: jsonListParam(
      tagKeySchema,
      20,
      'tags must be a JSON list of tag keys',
      'JSON list of tag keys an item must all have',
      '["anime"]',
    ),
  })
  .transform((query) => ({
    page: query.page,
    author: query.user || undefined,
    title: query.title?.trim() ?? '',
    sort: query.sortBy,
    types: uniqueValues(query.type ?? []),
    tags: uniqueValues(query.tags ?? []),
  }));
/** A page number query (`?page=`, from 1). */
export const pageQuerySchema = z.object({ page: pageSchema });

/** Tags sent as a JSON list (the edit and upload forms), without repeats. */
export const galleryTagsFieldSchema = z
  .preprocess(jsonList, z.array(tagKeySchema, { message: galleryMessages.unknownTag }).max(GALLERY_TAGS_MAX))
  .transform((tags) => uniqueValues(tags))
  .meta({ description: 'Tag keys: a JSON list as text (`["anime"]`), or a list' });
/** A call that names one gallery item. */
export const galleryHashBodySchema = z.object({ hash: textureHashSchema });
/**
 * POST /api/gallery/delete: the item and, when a moderator deletes someone else's item, the reason's key (from GET
 * /api/admin/banreasons).
 */
export const galleryDeleteBodySchema = z.object({
  hash: textureHashSchema,
  reason: z.string().optional().meta({
    description: "A moderator deleting someone else's item: the reason's key (the item's author may leave it out)",
  }),
});
/** POST /api/gallery/report: the item, the ticked terms, the reason and the optional note. */
export const galleryReportBodySchema = z.object({
  hash: textureHashSchema,
  tac: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], {
    message: 'You must accept the terms to report a texture.',
  }),
  ...reportReasonFields,
});
/** POST /api/gallery/edit: the new title and tags (JSON list). */
export const galleryEditBodySchema = z.object({
  hash: textureHashSchema,
  title: z.string({ message: galleryMessages.missingFields }),
  tags: galleryTagsFieldSchema,
});
/** POST /api/gallery/new's multipart fields (checked by the handler, which reads the stream). */
export const galleryNewFieldsSchema = z.object({
  title: z.string().meta({ description: 'At most 20 letters, digits, underscores and spaces' }),
  tags: z.string().meta({ description: 'JSON list of tag keys', example: '["anime"]' }),
  file: z.string().meta({ format: 'binary', description: 'PNG or GIF, at most 500 KB' }),
});
/** What a like toggle answers: the new state and count. */
export const likeResultSchema = z.object({ liked: z.boolean(), total_user_likes: z.number().int() });
/** What an edit answers: the reloaded item. */
export const editResultSchema = z.object({ success: z.literal(true), item: galleryItemSchema });
/** What a gallery upload answers: the item's hash, and whether that texture was already in the gallery. */
export const galleryNewResultSchema = z.object({
  success: z.literal(true),
  hash: z.string(),
  existing: z.boolean(),
  notice: uploadNoticeSchema,
});
