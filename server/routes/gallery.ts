// Gallery calls: tags, listing, items, preview images, download, like, delete, report, edit and new.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { successSchema } from '../../src/lib/schemas/common.ts';
import {
  editResultSchema,
  galleryDeleteBodySchema,
  galleryEditBodySchema,
  galleryHashBodySchema,
  galleryItemSchema,
  galleryListQuerySchema,
  galleryNewFieldsSchema,
  galleryNewResultSchema,
  galleryPageSchema,
  galleryReportBodySchema,
  galleryTagsFieldSchema,
  likeResultSchema,
  pageQuerySchema,
  tagSchema,
  userGallerySchema,
} from '../../src/lib/schemas/gallery.ts';
import { textureHashSchema } from '../../src/lib/schemas/ids.ts';
import { GALLERY_TYPES, galleryMessages, galleryRefusal } from '../../src/lib/gallery-rules.ts';
import type { Refusal } from '../../src/lib/refusals.ts';
import { CAPE_MAX_BYTES } from '../../src/lib/texture-rules.ts';
import { normalizeUuid, TEXTURE_HASH_PATTERN } from '../../src/lib/ids.ts';
import { requireUser } from '../auth/plugin.ts';
import type { UserRow } from '../db/users.ts';
import {
  createGalleryItem,
  deleteGalleryItems,
  editGalleryItem,
  galleryItemOwner,
  recordDownload,
  reportGalleryItem,
  toggleLike,
} from '../gallery/items.ts';
import { findGalleryItem, listGallery } from '../gallery/queries.ts';
import { checkTitleAndTags, tagsRefusal, titleAndTagsRefusal } from '../gallery/title-and-tags.ts';
import { seesHiddenItems } from '../gallery/visibility.ts';
import { HttpError } from '../http/errors.ts';
import { sendRefusal } from '../http/refusal-reply.ts';
import { perUserRateLimit } from '../http/user-rate-limit.ts';
import { multipartBody, readMultipart } from '../http/multipart.ts';
import { errorResponses, fileResponse, sendFile, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { DerivedVariant } from '../textures/library/texture-library.ts';
import type { AppContext } from '../operations/app-context.ts';
import { removeGalleryItem } from '../admin/picture-removal.ts';
import { countPlayersWearing } from '../textures/library/player-columns.ts';
import { adminMessages } from '../../src/lib/admin-rules.ts';
import { BAN_REASONS, isBanReason } from '../../src/lib/ban-reasons.ts';

const HASH_PARAM = `^${TEXTURE_HASH_PATTERN}$`;
const hashParams = z.object({ hash: textureHashSchema });
const sessionOnly = { auth: 'session' } as const;

/** Whether a user may edit or delete an item: its author or an admin. */
function mayManage(user: UserRow, authorUuid: string): boolean {
  return user.uuid === authorUuid || user.group.admin;
}

/** Registers every /api/gallery call. */
export async function galleryRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, library, imageJobs, intake } = options;
  /** The 404 of an unknown, hidden or gone item. */
  const noSuchTexture = () => new HttpError(404, galleryMessages.noSuchTexture);

  /**
   * A listed item, or a 404 as for an unknown hash; `includeHidden` (for moderators) also finds a banned author's item.
   */
  const itemOr404 = async (hash: string, includeHidden = false) => {
    const item = await galleryItemOwner(db, hash, includeHidden);
    if (!item) throw noSuchTexture();
    return item;
  };

  /**
   * Serves a rendered image, made when the item was added (server/textures/intake/add-gallery-item.ts); one of an item
   * added before that was the rule is rendered once here, as the site's own work, and kept in the blob store. Only a
   * picture that may be served is, unless the viewer is a moderator looking at the evidence (a banned author's item).
   */
  const sendRendered = async (
    reply: FastifyReply,
    hash: string,
    variant: DerivedVariant,
    render: 'capePreview' | 'earsPreview' | 'textureMap',
    evidence: boolean,
  ) => {
    const build = (png: Buffer) => imageJobs.run(render, png, null);
    const image = evidence
      ? await library.derived(hash, variant, build)
      : await library.readDerived(hash, variant, build);
    if (!image) throw noSuchTexture();
    return sendFile(reply.header('cache-control', 'private, max-age=86400'), 'image/png', image);
  };

  app.get(
    '/api/gallery/tags',
    { schema: { summary: 'The gallery tags', response: { 200: z.array(tagSchema), ...errorResponses } } },
    async () => db.selectFrom('tags').select(['tag_key', 'name']).orderBy('name').execute(),
  );

  app.get(
    '/api/gallery/get',
    {
      config: sessionOnly,
      schema: {
        summary: 'One page of the gallery, filtered and sorted',
        querystring: galleryListQuerySchema,
        response: { 200: galleryPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { page, author, title, sort, types, tags } = request.query;
      return listGallery(
        db,
        { page, sort, author, title: title.toLowerCase(), tags, types: types.map((name) => GALLERY_TYPES[name]) },
        user.uuid,
      );
    },
  );

  app.get(
    '/api/gallery/user/:uuid',
    {
      config: sessionOnly,
      schema: {
        summary: "One page of a player's uploads, newest first",
        params: z.object({
          uuid: z
            .string()
            .meta({ description: 'Player uuid, dashes allowed (an unknown or malformed one answers 404)' }),
        }),
        querystring: pageQuerySchema,
        response: { 200: userGallerySchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      // Only a well-formed uuid reaches the database; anything else names no player.
      const uuid = normalizeUuid(request.params.uuid);
      const author =
        uuid && (await db.selectFrom('users').select('username').where('uuid', '=', uuid).executeTakeFirst());
      if (!uuid || !author) throw new HttpError(404, "That user doesn't exist or isn't registered.");
      const gallery = await listGallery(
        db,
        { page: request.query.page, sort: 'uploaded_desc', author: uuid },
        user.uuid,
      );
      return { user: { username: author.username, uuid }, gallery };
    },
  );

  app.get(
    `/api/gallery/:hash(${HASH_PARAM})`,
    {
      config: sessionOnly,
      schema: {
        summary: 'One gallery item',
        params: hashParams,
        response: { 200: galleryItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const item = await findGalleryItem(db, request.params.hash, user.uuid);
      if (!item) throw noSuchTexture();
      // Moderators are told how many players a Delete would take the picture off.
      return user.group.admin ? { ...item, wearers: await countPlayersWearing(db, [item.hash]) } : item;
    },
  );

  app.get(
    `/api/gallery/:hash(${HASH_PARAM})/preview`,
    {
      config: sessionOnly,
      schema: {
        summary: 'The 320 × 180 front-and-back preview of an item',
        params: hashParams,
        response: { 200: fileResponse('image/png', 'The preview'), ...errorResponses },
      },
    },
    async (request, reply) => {
      // Moderators still see a banned author's item in the gallery report queue.
      const evidence = seesHiddenItems(await requireUser(request));
      const item = await itemOr404(request.params.hash, evidence);
      const render = item.type === GALLERY_TYPES.ears ? 'earsPreview' : 'capePreview';
      return sendRendered(reply, item.hash, 'preview', render, evidence);
    },
  );

  app.get(
    `/api/gallery/:hash(${HASH_PARAM})/preview/map`,
    {
      config: sessionOnly,
      schema: {
        summary: "An item's texture map, scaled up",
        params: hashParams,
        response: { 200: fileResponse('image/png', 'The texture map'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const evidence = seesHiddenItems(await requireUser(request));
      const item = await itemOr404(request.params.hash, evidence);
      return sendRendered(reply, item.hash, 'map', 'textureMap', evidence);
    },
  );

  app.get(
    `/api/gallery/:hash(${HASH_PARAM})/download`,
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit(
          'gallery-download',
          options.config.galleryDownloadsPerMinute,
          60_000,
          galleryMessages.tooManyDownloads,
        ),
      },
      schema: {
        summary: 'Download an item (counts a download): a PNG, or a GIF for an animated cape',
        params: hashParams,
        response: {
          200: {
            description: 'The texture',
            content: { ...fileResponse('image/png', '').content, ...fileResponse('image/gif', '').content },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const item = await itemOr404(request.params.hash);
      // An animated item downloads as a GIF, built once per strip (as the first downloader's image work, in their queue
      // share and budget, never the site's) and kept beside it in the blob store.
      const file = item.strip_hash
        ? await library.readDerived(item.strip_hash, 'gif', (strip) => imageJobs.run('stripGif', strip, user.uuid))
        : await library.readRegistered(item.hash);
      if (!file) throw noSuchTexture();
      await recordDownload(db, item.hash);
      const name = item.title.replace(/[^A-Za-z0-9_ ]/g, '').trim() || 'texture';
      const type = item.strip_hash ? 'gif' : 'png';
      return sendFile(
        reply.header('content-disposition', `attachment; filename="${name}.${type}"`),
        `image/${type}`,
        file,
      );
    },
  );

  app.post(
    '/api/gallery/like',
    {
      config: sessionOnly,
      schema: {
        summary: 'Like an item, or take the like back',
        body: galleryHashBodySchema,
        response: { 200: likeResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await itemOr404(request.body.hash);
      const liked = await toggleLike(db, request.body.hash, user.uuid);
      if (!liked) throw noSuchTexture();
      return liked;
    },
  );

  app.post(
    '/api/gallery/delete',
    {
      config: sessionOnly,
      schema: {
        summary:
          'Delete an item: its author, or a moderator with a reason (which removes the picture from every player wearing it and puts it on the blocklist)',
        body: galleryDeleteBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const item = await itemOr404(request.body.hash);
      if (!mayManage(user, item.author_uuid)) throw new HttpError(403, 'You can only delete your own textures.');
      if (item.author_uuid === user.uuid) {
        await library.release(await deleteGalleryItems(db, [item.hash]));
        return { success: true as const };
      }
      // A moderator's Delete of someone else's item is a removal of its picture, for a reason.
      const reason = request.body.reason;
      if (!reason || !isBanReason(reason))
        throw new HttpError(422, adminMessages.chooseReason, { reason: [adminMessages.chooseReason] });
      await removeGalleryItem(options, user, item, BAN_REASONS[reason]!);
      return { success: true as const };
    },
  );

  app.post(
    '/api/gallery/report',
    {
      config: sessionOnly,
      schema: {
        summary: 'Report an item to the moderators',
        body: galleryReportBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const item = await itemOr404(request.body.hash);
      if (item.whitelisted === 1)
        throw new HttpError(422, 'This texture was marked safe by staff and cannot be reported.');
      if (item.author_uuid === user.uuid) throw new HttpError(422, 'You cannot report your own texture.');
      if (
        !(await reportGalleryItem(db, item.hash, user.uuid, {
          reasonKey: request.body.reason,
          note: request.body.note,
        }))
      )
        throw new HttpError(422, 'You have already reported this texture.');
      return { success: true as const };
    },
  );

  app.post(
    '/api/gallery/edit',
    {
      config: sessionOnly,
      schema: {
        summary: "Change an item's title and tags (its author or an admin)",
        body: galleryEditBodySchema,
        response: { 200: editResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { hash, title, tags } = request.body;
      const item = await itemOr404(hash);
      if (!mayManage(user, item.author_uuid)) throw new HttpError(403, 'You can only edit your own textures.');
      await checkTitleAndTags(db, title, tags);
      await editGalleryItem(db, hash, title, tags);
      return { success: true as const, item: (await findGalleryItem(db, hash, user.uuid))! };
    },
  );

  app.post(
    '/api/gallery/new',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit(
          'gallery-new',
          options.config.galleryUploadsPerTenMinutes,
          10 * 60_000,
          galleryMessages.tooManyUploads,
          () => intake.refuse('gallery', galleryRefusal('tooManyUploads')),
        ),
      },
      schema: {
        summary: 'Share a texture to the gallery',
        ...multipartBody(galleryNewFieldsSchema),
        response: { 200: galleryNewResultSchema, 201: galleryNewResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { fields, file } = await readMultipart(request, reply, CAPE_MAX_BYTES);
      const refuse = (refusal: Refusal) => sendRefusal(reply, intake.refuse('gallery', refusal));
      if (file === 'too-big') return refuse(galleryRefusal('fileTooBig'));
      if (!file || !fields.title || !fields.tags) return refuse(galleryRefusal('missingFields'));
      const title = fields.title;
      const tags = galleryTagsFieldSchema.safeParse(fields.tags);
      if (!tags.success) return refuse(tagsRefusal('unknownTag'));
      const problem = await titleAndTagsRefusal(db, title, tags.data);
      if (problem) return refuse(problem);
      const shared = await intake.galleryUpload(file, user.uuid, (picture) =>
        createGalleryItem(db, { ...picture, title, authorUuid: user.uuid, tags: tags.data }),
      );
      if ('refusal' in shared) return sendRefusal(reply, shared.refusal);
      return reply.status(shared.created ? 201 : 200).send({
        success: true as const,
        hash: shared.hash,
        existing: !shared.created,
        ...(shared.notice ? { notice: shared.notice } : {}),
      });
    },
  );
}
