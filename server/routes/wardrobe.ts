// The wardrobe calls: GET /api/wardrobe lists the player's capes and ears, and POST /api/wardrobe/wear, /take-off,
// /rename and /remove change one item; each change answers the wardrobe as it is after it.
import type { FastifyInstance } from 'fastify';
import { galleryMessages } from '../../src/lib/gallery-rules.ts';
import { wardrobeItemBodySchema, wardrobeRenameBodySchema, wardrobeSchema } from '../../src/lib/schemas/wardrobe.ts';
import { wardrobeMessages } from '../../src/lib/wardrobe-rules.ts';
import type { z } from 'zod';
import { requireUser } from '../auth/plugin.ts';
import { HttpError } from '../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { textureChangeRoute } from '../http/texture-change-route.ts';
import { textureUrl } from '../http/texture-url.ts';
import type { AppContext } from '../operations/app-context.ts';
import {
  listWardrobe,
  removeWardrobeItem,
  renameWardrobeItem,
  takeOffWardrobeItem,
  wearWardrobeItem,
  type WardrobeListing,
} from '../wardrobe/wardrobe.ts';

/** The wardrobe as the API answers it: texture URLs on the API host. */
function wardrobeAnswer(listing: WardrobeListing, baseUrl: string, limit: number): z.infer<typeof wardrobeSchema> {
  return {
    items: listing.items.map((item) => ({
      id: item.id,
      kind: item.kind,
      texture: textureUrl(baseUrl, item.stillHash),
      animated_texture: item.stripHash ? textureUrl(baseUrl, item.stripHash) : null,
      source: item.source,
      gallery_hash: item.galleryHash,
      title: item.title,
      name: item.name,
      added_at: item.addedAt,
      worn: item.worn,
    })),
    limit,
    dropped: listing.dropped,
  };
}

/**
 * Registers the wardrobe calls; each change counts against the player's one budget of texture changes
 * (TEXTURE_UPLOADS_PER_10_MINUTES per 10 minutes, shared with uploads, take-offs, "Wear this" and capes from the
 * creators).
 */
export async function wardrobeRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, config } = options;
  const answer = async (uuid: string) =>
    wardrobeAnswer(await listWardrobe(db, uuid), config.publicBaseUrl, config.wardrobeItems);

  app.get(
    '/api/wardrobe',
    {
      config: { auth: 'session', oauthScope: 'wardrobe:read' },
      schema: {
        summary: "The player's wardrobe: every cape and ears they uploaded, made or wore, newest first",
        response: { 200: wardrobeSchema, ...errorResponses },
      },
    },
    async (request) => answer((await requireUser(request)).uuid),
  );

  /** A wardrobe change: wardrobe:write, on the budget of texture changes, answering the wardrobe after it. */
  const wardrobeChange = {
    body: wardrobeItemBodySchema,
    answer: wardrobeSchema,
    oauthScope: 'wardrobe:write',
    changesPerTenMinutes: config.textureUploadsPerTenMinutes,
    tooManyMessage: galleryMessages.tooManyWears,
  } as const;

  textureChangeRoute(app, {
    ...wardrobeChange,
    path: '/api/wardrobe/wear',
    summary: 'Wear an item of the wardrobe: the mod API shows it at once',
    change: async (body, request) => {
      const user = await requireUser(request);
      const worn = await wearWardrobeItem(options, user.uuid, body.id);
      if (worn === false) throw new HttpError(404, wardrobeMessages.notFound);
      if (worn !== true) return worn;
      return answer(user.uuid);
    },
  });

  for (const [path, change, summary] of [
    ['take-off', takeOffWardrobeItem, 'Take an item of the wardrobe off (it stays in the wardrobe)'],
    ['remove', removeWardrobeItem, 'Remove an item from the wardrobe, taking it off first when it is worn'],
  ] as const) {
    textureChangeRoute(app, {
      ...wardrobeChange,
      path: `/api/wardrobe/${path}`,
      summary,
      change: async (body, request) => {
        const user = await requireUser(request);
        if (!(await change(options, user.uuid, body.id))) throw new HttpError(404, wardrobeMessages.notFound);
        return answer(user.uuid);
      },
    });
  }

  app.post(
    '/api/wardrobe/rename',
    {
      config: { auth: 'session', oauthScope: 'wardrobe:write' },
      schema: {
        summary: 'Name an item of the wardrobe (an empty name takes its name away)',
        body: wardrobeRenameBodySchema,
        response: { 200: wardrobeSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { id, name } = request.body;
      if (!(await renameWardrobeItem(db, user.uuid, id, name || null)))
        throw new HttpError(404, wardrobeMessages.notFound);
      return answer(user.uuid);
    },
  );
}
