// Gallery calls (SPEC §7 Gallery): tags, listing, items, preview images, download, like, delete, report, edit and new.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  checkGalleryTitle,
  DEFAULT_GALLERY_SORT,
  GALLERY_SORTS,
  GALLERY_TYPES,
  galleryMessages,
  type GalleryTypeName,
} from '../../src/lib/gallery-rules.ts';
import { CAPE_MAX_BYTES } from '../../src/lib/texture-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/users.ts';
import {
  createGalleryItem,
  deleteGalleryItems,
  editGalleryItem,
  existingTags,
  galleryItemOwner,
  recordDownload,
  reportGalleryItem,
  toggleLike,
} from '../gallery/items.ts';
import { findGalleryItem, listGallery } from '../gallery/queries.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { readMultipart } from '../http/multipart.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { processGalleryTexture, stripToGif, TextureRejected } from '../textures/process.ts';
import { derivedKey, type DerivedVariant } from '../textures/library.ts';
import { renderTextureMap, renderTexturePreview } from '../textures/render.ts';

const HASH_PARAM = '^[0-9a-f]{64}$';
const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, { message: 'That texture does not exist.' });

/** Parses a JSON-encoded list (form fields and query strings send lists as JSON). */
function jsonList(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || value === '') return [];
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  user: z.string().regex(/^[0-9a-f]{32}$/, { message: 'The user must be a player uuid.' }).optional().or(z.literal('')),
  title: z.string().max(20).regex(/^[A-Za-z0-9_\s]*$/, { message: galleryMessages.titleCharacters }).optional(),
  sortBy: z.enum(GALLERY_SORTS, { message: `sortBy must be one of ${GALLERY_SORTS.join(', ')}` }).default(DEFAULT_GALLERY_SORT),
  type: z.preprocess(jsonList, z.array(z.enum(['cape', 'ears', 'animated']), { message: 'type must be a JSON list of cape, ears or animated' }).max(3)).optional(),
  tags: z.preprocess(jsonList, z.array(z.string().max(40), { message: 'tags must be a JSON list of tag keys' }).max(20)).optional(),
});

const tagsField = z.preprocess(jsonList, z.array(z.string().max(40), { message: galleryMessages.unknownTag }).max(10));

/** Checks a title and tag list against SPEC §5; throws a 422 with the message. */
async function checkTitleAndTags(db: Db, title: string, tags: string[]): Promise<void> {
  const titleProblem = checkGalleryTitle(title);
  if (titleProblem) throw new HttpError(422, titleProblem, { title: [titleProblem] });
  if (tags.length === 0) throw new HttpError(422, galleryMessages.missingFields, { tags: [galleryMessages.missingFields] });
  const known = await existingTags(db, [...new Set(tags)]);
  if (known.length !== new Set(tags).size) throw new HttpError(422, galleryMessages.unknownTag, { tags: [galleryMessages.unknownTag] });
}

/** Whether a user may edit or delete an item: its author or an admin. */
function mayManage(user: UserRow, authorUuid: string): boolean {
  return user.uuid === authorUuid || user.group.admin;
}

/** Registers every /api/gallery call. */
export async function galleryRoutes(app: FastifyInstance, options: { db: Db; library: TextureLibrary; uploadsPerTenMinutes: number }) {
  const { db, library } = options;

  const itemOr404 = async (hash: string) => {
    const item = await galleryItemOwner(db, hash);
    if (!item) throw new HttpError(404, 'That texture does not exist.');
    return item;
  };

  /** Serves a rendered image, rendering it once per texture and keeping it in the blob store. */
  const sendRendered = async (reply: FastifyReply, hash: string, variant: DerivedVariant, render: (png: Buffer) => Promise<Buffer>) => {
    const key = derivedKey(hash, variant);
    let image = await library.store.get(key);
    if (!image) {
      const texture = await library.read(hash);
      if (!texture) throw new HttpError(404, 'That texture does not exist.');
      image = await render(texture);
      await library.store.put(key, image);
    }
    return reply.header('cache-control', 'private, max-age=86400').type('image/png').send(image);
  };

  app.get('/api/gallery/tags', async () => db.selectFrom('tags').select(['tag_key', 'name']).orderBy('name').execute());

  app.get('/api/gallery/get', async (request) => {
    const user = await requireUser(request);
    const query = parseInput(listQuery, request.query);
    const title = query.title?.trim().toLowerCase();
    return listGallery(
      db,
      {
        page: query.page,
        sort: query.sortBy,
        title: title || undefined,
        types: query.type ? [...new Set(query.type.map((name) => GALLERY_TYPES[name as GalleryTypeName]))] : undefined,
        tags: query.tags ? [...new Set(query.tags)] : undefined,
        author: query.user || undefined,
      },
      user.uuid,
    );
  });

  app.get<{ Params: { uuid: string } }>('/api/gallery/user/:uuid', async (request) => {
    const user = await requireUser(request);
    const uuid = request.params.uuid;
    const author = await db.selectFrom('users').select('username').where('uuid', '=', uuid).executeTakeFirst();
    if (!author) throw new HttpError(404, "That user doesn't exist or isn't registered.");
    const page = parseInput(z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) }), request.query).page;
    const gallery = await listGallery(db, { page, sort: 'uploaded_desc', author: uuid }, user.uuid);
    return { user: { username: author.username, uuid }, gallery };
  });

  app.get<{ Params: { hash: string } }>(`/api/gallery/:hash(${HASH_PARAM})`, async (request) => {
    const user = await requireUser(request);
    const item = await findGalleryItem(db, request.params.hash, user.uuid);
    if (!item) throw new HttpError(404, 'That texture does not exist.');
    return item;
  });

  app.get<{ Params: { hash: string } }>(`/api/gallery/:hash(${HASH_PARAM})/preview`, async (request, reply) => {
    await requireUser(request);
    const item = await itemOr404(request.params.hash);
    return sendRendered(reply, item.hash, 'preview', (png) => renderTexturePreview(png, item.type === 1 ? 'ears' : 'cape'));
  });

  app.get<{ Params: { hash: string } }>(`/api/gallery/:hash(${HASH_PARAM})/preview/map`, async (request, reply) => {
    await requireUser(request);
    const item = await itemOr404(request.params.hash);
    return sendRendered(reply, item.hash, 'map', renderTextureMap);
  });

  app.get<{ Params: { hash: string } }>(`/api/gallery/:hash(${HASH_PARAM})/download`, async (request, reply) => {
    await requireUser(request);
    const item = await itemOr404(request.params.hash);
    const strip = item.strip_hash ? await library.read(item.strip_hash) : null;
    const still = strip ? null : await library.read(item.hash);
    if (!strip && !still) throw new HttpError(404, 'That texture does not exist.');
    await recordDownload(db, item.hash);
    const name = item.title.replace(/[^A-Za-z0-9_ ]/g, '').trim() || 'texture';
    if (strip) {
      return reply.header('content-disposition', `attachment; filename="${name}.gif"`).type('image/gif').send(await stripToGif(strip));
    }
    return reply.header('content-disposition', `attachment; filename="${name}.png"`).type('image/png').send(still);
  });

  app.post('/api/gallery/like', async (request) => {
    const user = await requireUser(request);
    const { hash } = parseInput(z.object({ hash: hashSchema }), request.body);
    await itemOr404(hash);
    return toggleLike(db, hash, user.uuid);
  });

  app.post('/api/gallery/delete', async (request) => {
    const user = await requireUser(request);
    const { hash } = parseInput(z.object({ hash: hashSchema }), request.body);
    const item = await itemOr404(hash);
    if (!mayManage(user, item.author_uuid)) throw new HttpError(403, 'You can only delete your own textures.');
    await library.release(await deleteGalleryItems(db, [hash]));
    return { success: true };
  });

  app.post('/api/gallery/report', async (request) => {
    const user = await requireUser(request);
    const body = parseInput(
      z.object({ hash: hashSchema, tac: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], { message: 'You must accept the terms to report a texture.' }) }),
      request.body,
    );
    const item = await itemOr404(body.hash);
    if (item.whitelisted === 1) throw new HttpError(422, 'This texture was marked safe by staff and cannot be reported.');
    if (item.author_uuid === user.uuid) throw new HttpError(422, 'You cannot report your own texture.');
    if (!(await reportGalleryItem(db, body.hash, user.uuid))) throw new HttpError(422, 'You have already reported this texture.');
    return { success: true };
  });

  app.post('/api/gallery/edit', async (request) => {
    const user = await requireUser(request);
    const body = parseInput(z.object({ hash: hashSchema, title: z.string({ message: galleryMessages.missingFields }), tags: tagsField }), request.body);
    const item = await itemOr404(body.hash);
    if (!mayManage(user, item.author_uuid)) throw new HttpError(403, 'You can only edit your own textures.');
    const tags = body.tags as string[];
    await checkTitleAndTags(db, body.title, tags);
    await editGalleryItem(db, body.hash, body.title, [...new Set(tags)]);
    return { success: true, item: await findGalleryItem(db, body.hash, user.uuid) };
  });

  app.post(
    '/api/gallery/new',
    {
      config: {
        rateLimit: {
          max: options.uploadsPerTenMinutes,
          timeWindow: 10 * 60_000,
          keyGenerator: async (request: FastifyRequest) => `gallery-new:${(await request.currentUser())?.uuid ?? request.ip}`,
          errorResponseBuilder: () => new HttpError(429, galleryMessages.tooManyUploads),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { fields, file } = await readMultipart(request, CAPE_MAX_BYTES);
      if (!file || !fields.title || !fields.tags) throw new HttpError(422, galleryMessages.missingFields);
      if (file === 'too-big') throw new HttpError(422, galleryMessages.fileTooBig);
      const tags = tagsField.safeParse(fields.tags);
      if (!tags.success) throw new HttpError(422, galleryMessages.unknownTag, { tags: [galleryMessages.unknownTag] });
      await checkTitleAndTags(db, fields.title, tags.data as string[]);
      let texture;
      try {
        texture = await processGalleryTexture(file);
      } catch (error) {
        if (error instanceof TextureRejected) throw new HttpError(422, error.message);
        throw error;
      }
      const hash = await library.put(texture.still, 'gallery');
      const stripHash = texture.strip ? await library.put(texture.strip, 'gallery') : null;
      const type = texture.kind === 'ears' ? GALLERY_TYPES.ears : texture.strip ? GALLERY_TYPES.animated : GALLERY_TYPES.cape;
      const created = await createGalleryItem(db, { hash, stripHash, title: fields.title, authorUuid: user.uuid, type, tags: [...new Set(tags.data as string[])] });
      await library.ensure(texture.still, 'gallery');
      if (texture.strip) await library.ensure(texture.strip, 'gallery');
      return reply.status(created ? 201 : 200).send({ success: true, hash, existing: !created });
    },
  );
}
