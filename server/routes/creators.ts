// The cape creators' calls (SPEC §7 Gallery, issue "six cape creators"): each makes a cape on the server through the
// texture pipeline and answers the PNG (or, asked for JSON, its URLs); a made cape can be worn or shared to the gallery
// by the player who made it.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  aiPromptBodySchema,
  aiProviderSchema,
  creationSchema,
  creationShareBodySchema,
  creationUseBodySchema,
  galleryNewResultSchema,
  textureHashSchema,
  uploadResultSchema,
} from '../../src/lib/api-schemas.ts';
import { BANNER_SERVICES } from '../../src/lib/banner-url.ts';
import {
  BANNER_ALIGNMENTS,
  checkAiPrompt,
  cleanPrompt,
  CREATOR_INPUT_MAX_BYTES,
  CREATOR_MAX_SCALE,
  CREATOR_MIN_SCALE,
  CREATOR_USERNAME_MAX,
  creatorMessages,
  HEX_COLOUR_PATTERN,
  OPTIFINE_DESIGNS,
  SLIDER_MAX,
  SLIDER_MIN,
  type OptifineDesign,
} from '../../src/lib/creator-rules.ts';
import { GALLERY_TYPES, galleryMessages } from '../../src/lib/gallery-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import type { CreatorsConfig } from '../config.ts';
import type { UserRow } from '../db/users.ts';
import { createGalleryItem, galleryItemOwner } from '../gallery/items.ts';
import { HttpError, whenServiceFails } from '../http/errors.ts';
import { multipartBody, readMultipart } from '../http/multipart.ts';
import { errorResponses, fileResponse, sendFile, type ZodTypeProvider } from '../http/route-schemas.ts';
import { perUserRateLimit } from '../http/user-rate-limit.ts';
import { AiImageError, createAiImageProvider } from '../integrations/ai-images.ts';
import { fetchSkinByName } from '../integrations/mojang.ts';
import { fetchOptifineCape } from '../integrations/optifine.ts';
import { decodeBannerCode } from '../textures/generators/banner/codes.ts';
import { renderBanner } from '../textures/generators/banner/render.ts';
import { assignPlayerTextures, storeAndPoint, type AssignmentContext } from '../textures/library/assign.ts';
import { BLOCKLISTED_MESSAGE } from '../textures/library/blocklist.ts';
import { Creations, type StoredCreation } from '../creators/creations.ts';
import type { CreationRequest } from '../textures/generators/index.ts';
import { designColours } from '../textures/generators/optifine-cape.ts';
import type { ImageJobs } from '../images/job-queue.ts';
import { TextureRejected, type EncodedTexture } from '../textures/pipeline/process.ts';
import { parseHexColour, type Rgba } from '../textures/pipeline/raw-image.ts';
import { checkTitleAndTags } from './gallery.ts';

/** What the creators' calls need. */
export interface CreatorRoutesOptions extends AssignmentContext {
  imageJobs: ImageJobs;
  publicBaseUrl: string;
  mojangApiUrl: string;
  creators: CreatorsConfig;
  uploadsPerTenMinutes: number;
  galleryUploadsPerTenMinutes: number;
  /** How long after making it a player may wear, share or preview a creation. */
  creationLifetimeMs: number;
  /** Where the site calls the API (its own origin unless the API is elsewhere): the preview is asked for with the session cookie. */
  apiBaseUrl: string;
}

/** The message when a player makes capes too quickly. */
export const TOO_MANY_CREATIONS_MESSAGE = 'Too many cape requests. Try again in a minute.';
/** The message when a player has used up their AI prompts for the hour. */
export const TOO_MANY_PROMPTS_MESSAGE = 'You have made a lot of AI capes. Try again in an hour.';
/** The message for a banner code that does not decode. */
export const BANNER_CODE_MESSAGE = 'That banner code is not valid.';
/** The message when a looked-up service fails (the page stops loading; the message is for other clients). */
export const SERVICE_DOWN_MESSAGE = 'The player service could not be reached. Try again later.';

const hexColour = z.string().regex(HEX_COLOUR_PATTERN, { message: creatorMessages.badColour });
const slider = z.coerce.number().int().min(SLIDER_MIN).max(SLIDER_MAX);
const username = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9_]{1,${CREATOR_USERNAME_MAX}}$`), { message: 'A username is 1 to 16 letters, digits or underscores.' });
const booleanParam = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Reads a creator form's scale (1..6), colour (hex or 'auto' where allowed) and elytra flag; throws a 422 with the message. */
function readCapeSettings(fields: Record<string, string>, allowAuto: boolean): { scale: number; colour: Rgba | 'auto'; elytra: boolean } {
  const scale = Number(fields.scale ?? '1');
  if (!Number.isInteger(scale) || scale < CREATOR_MIN_SCALE || scale > CREATOR_MAX_SCALE)
    throw new HttpError(422, creatorMessages.badScale, { scale: [creatorMessages.badScale] });
  const colourText = (fields.color ?? (allowAuto ? 'auto' : '000000')).trim();
  const colour = allowAuto && colourText === 'auto' ? 'auto' : parseHexColour(colourText);
  if (!colour) throw new HttpError(422, creatorMessages.badColour, { color: [creatorMessages.badColour] });
  return { scale, colour, elytra: fields.elytra === 'true' || fields.elytra === '1' };
}

/** A creation and whether the cache had it. */
type Made = { creation: StoredCreation; cached: boolean };

/** Whether the caller asked for JSON rather than the image. */
function wantsJson(request: FastifyRequest): boolean {
  return /\bapplication\/json\b/.test(request.headers.accept ?? '');
}

/** Registers the creators' calls. */
export async function creatorRoutes(instance: FastifyInstance, options: CreatorRoutesOptions) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, library, imageJobs, creators: settings } = options;
  const creations = new Creations(db, library, imageJobs, options.creationLifetimeMs);
  const texturesBaseUrl = `${options.publicBaseUrl}/textures`;
  const creatorConfig = { auth: 'session' as const, rateLimit: perUserRateLimit('creators', settings.callsPerMinute, 60_000, TOO_MANY_CREATIONS_MESSAGE) };
  const imageAnswer = { 200: fileResponse('image/png', 'The cape (or, with `Accept: application/json`, its URLs as a Creation)'), ...errorResponses };

  /** The JSON description of a creation. */
  const describe = (creation: StoredCreation) => ({
    success: true as const,
    hash: creation.hash,
    cape: `${texturesBaseUrl}/${creation.hash}`,
    preview: `${options.apiBaseUrl}/api/gallery/creations/${creation.hash}/preview`,
    width: creation.width,
    height: creation.height,
    frames: creation.frames,
    ...(creation.notice ? { notice: creation.notice } : {}),
  });

  /** Makes a creation with `make` (a refused picture is a 422 with its message) and answers it as JSON or as the PNG. */
  const answerMade = async (request: FastifyRequest, reply: FastifyReply, make: () => Promise<Made>, json = wantsJson(request)) => {
    let made: Made;
    try {
      made = await make();
    } catch (error) {
      if (error instanceof TextureRejected) throw new HttpError(422, error.message);
      throw error;
    }
    const { creation } = made;
    reply.header('x-creation-cache', made.cached ? 'hit' : 'miss');
    if (json) return reply.header('cache-control', 'no-store').send(describe(creation));
    const bytes = await library.read(creation.hash);
    if (!bytes) throw new HttpError(410, creatorMessages.expired);
    reply.header('cache-control', 'no-store').header('x-texture-hash', creation.hash);
    return sendFile(reply, 'image/png', bytes);
  };

  /** Makes the creation for a generator's settings, made by the player `maker` (its image work counted to them), and answers it. */
  const answer = (request: FastifyRequest, reply: FastifyReply, maker: string, creationRequest: CreationRequest, json = wantsJson(request)) =>
    answerMade(request, reply, () => creations.make(creationRequest, maker), json);

  /** Reads a creator's multipart form with its picture fields; throws 413/422 with the messages. */
  const readForm = async (request: FastifyRequest, reply: FastifyReply, fileFields: string[]) => {
    const upload = await readMultipart(request, reply, CREATOR_INPUT_MAX_BYTES, fileFields);
    if (upload.file === 'too-big') throw new HttpError(413, creatorMessages.inputTooBig);
    return upload;
  };

  app.post(
    '/api/gallery/cape-creator',
    {
      config: creatorConfig,
      schema: {
        summary: 'Make a cape from a picture (image to cape)',
        ...multipartBody({
          file: z.string().meta({ format: 'binary', description: 'PNG, JPEG, GIF or WebP, at most 2 MB' }),
          scale: z.string().meta({ description: `${CREATOR_MIN_SCALE}..${CREATOR_MAX_SCALE}: the cape is 64·2ⁿ⁻¹ wide` }),
          color: z.string().meta({ description: "Hex colour of the other faces, or auto (the picture's average colour)" }),
          elytra: z.string().meta({ description: 'true to put the picture on the elytra too' }),
        }),
        response: imageAnswer,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { fields, files } = await readForm(request, reply, ['file']);
      if (!files.file) throw new HttpError(422, creatorMessages.inputMissing, { file: [creatorMessages.inputMissing] });
      return answer(request, reply, user.uuid, { generator: 'image', input: { image: files.file, ...readCapeSettings(fields, true) } });
    },
  );

  app.post(
    '/api/gallery/animated-cape-creator',
    {
      config: creatorConfig,
      schema: {
        summary: 'Make an animated cape from a GIF and a background',
        ...multipartBody({
          file: z.string().meta({ format: 'binary', description: 'GIF, at most 2 MB and 64 frames' }),
          background: z.string().meta({ format: 'binary', description: 'PNG background (optional)' }),
          scale: z.string(),
          color: z.string(),
          elytra: z.string(),
        }),
        response: { 200: creationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { fields, files } = await readForm(request, reply, ['file', 'background']);
      if (!files.file) throw new HttpError(422, creatorMessages.inputMissing, { file: [creatorMessages.inputMissing] });
      const background = files.background && files.background.length > 0 ? files.background : null;
      if (background && !background.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
        throw new HttpError(422, creatorMessages.backgroundType, { background: [creatorMessages.backgroundType] });
      }
      const { scale, colour, elytra } = readCapeSettings(fields, false);
      return answer(request, reply, user.uuid, { generator: 'animated', input: { gif: files.file, background, scale, colour: colour as Rgba, elytra } }, true);
    },
  );

  app.post(
    '/api/gallery/head-capes/:username/:red/:green/:blue/:brightness/:helmetOverlay',
    {
      config: creatorConfig,
      schema: {
        summary: "Make a cape of a player's face",
        params: z.object({ username, red: slider, green: slider, blue: slider, brightness: slider, helmetOverlay: booleanParam }),
        response: imageAnswer,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { username: name, helmetOverlay, ...sliders } = request.params;
      const skin = await fetchSkinByName(
        { apiUrl: options.mojangApiUrl, sessionUrl: settings.mojangSessionUrl, allowPrivateAddresses: settings.allowPrivateAddresses },
        name,
      ).catch(whenServiceFails(SERVICE_DOWN_MESSAGE));
      if (!skin) throw new HttpError(404, `No player called ${name} has a skin.`);
      return answer(request, reply, user.uuid, { generator: 'head', input: { skin, helmet: helmetOverlay, ...sliders } });
    },
  );

  app.post(
    '/api/gallery/optifine-capes/custom/:top/:bottom/:text/:shadow',
    {
      config: creatorConfig,
      schema: {
        summary: 'Make an OptiFine-style cape in custom colours',
        params: z.object({ top: hexColour, bottom: hexColour, text: hexColour, shadow: hexColour }),
        response: imageAnswer,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { top, bottom, text, shadow } = request.params;
      const colours = { top: parseHexColour(top)!, bottom: parseHexColour(bottom)!, text: parseHexColour(text)!, shadow: parseHexColour(shadow)! };
      return answer(request, reply, user.uuid, { generator: 'optifine', input: colours });
    },
  );

  app.post(
    '/api/gallery/optifine-capes/:name',
    {
      config: creatorConfig,
      schema: {
        summary: "Make an OptiFine-style cape from a design, or fetch a player's OptiFine cape",
        description: `A design name (${OPTIFINE_DESIGNS.join(', ')}) makes that design; any other name is looked up on the OptiFine cape server.`,
        params: z.object({ name: username }),
        response: imageAnswer,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { name } = request.params;
      if ((OPTIFINE_DESIGNS as readonly string[]).includes(name)) {
        return answer(request, reply, user.uuid, { generator: 'optifine', input: designColours(name as OptifineDesign) });
      }
      const file = await fetchOptifineCape(settings.optifineCapesUrl, name).catch(whenServiceFails(creatorMessages.optifineNoCape));
      if (!file) throw new HttpError(404, creatorMessages.optifineNoCape);
      return answer(request, reply, user.uuid, { generator: 'optifineFile', input: file });
    },
  );

  app.post(
    '/api/gallery/banner-capes/:service/:bannerId/:top/:bottom/:alignment',
    {
      config: creatorConfig,
      schema: {
        summary: 'Make a cape of a banner from a banner editor (lmc: LivzMC, pmc: Planet Minecraft)',
        params: z.object({
          service: z.enum(BANNER_SERVICES),
          bannerId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, { message: BANNER_CODE_MESSAGE }),
          top: hexColour,
          bottom: hexColour,
          alignment: z.enum(BANNER_ALIGNMENTS),
        }),
        response: imageAnswer,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { service, bannerId, top, bottom, alignment } = request.params;
      const banner = decodeBannerCode(service, bannerId);
      if (!banner) throw new HttpError(422, BANNER_CODE_MESSAGE, { bannerId: [BANNER_CODE_MESSAGE] });
      const face = renderBanner(banner);
      return answer(request, reply, user.uuid, {
        generator: 'banner',
        input: { banner: face, top: parseHexColour(top)!, bottom: parseHexColour(bottom)!, alignment },
      });
    },
  );

  const aiProvider = createAiImageProvider({ ...settings.ai, allowPrivateAddresses: settings.allowPrivateAddresses });

  app.get(
    '/api/gallery/ai-cape-creator',
    { config: { auth: 'session' }, schema: { summary: 'Which image maker the AI cape creator uses', response: { 200: aiProviderSchema, ...errorResponses } } },
    async (request) => {
      await requireUser(request);
      return { name: aiProvider.name, builtIn: aiProvider.builtIn };
    },
  );

  app.post(
    '/api/gallery/ai-cape-creator',
    {
      config: { auth: 'session', rateLimit: perUserRateLimit('ai-cape', settings.aiPromptsPerHour, 60 * 60_000, TOO_MANY_PROMPTS_MESSAGE) },
      schema: { summary: 'Make a cape from a prompt (at most 50 characters)', body: aiPromptBodySchema, response: imageAnswer },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const prompt = cleanPrompt(request.body.prompt).trim();
      const problem = checkAiPrompt(prompt);
      if (problem) throw new HttpError(422, problem, { prompt: [problem] });
      // Every request is logged for moderators, with the texture it made (none when it failed).
      const log = (textureHash: string | null) =>
        db.insertInto('ai_cape_logs').values({ created_at: Date.now(), user_uuid: user.uuid, prompt, texture_hash: textureHash }).execute();
      const key = `ai:${createHash('sha256').update(`${aiProvider.name}\n${prompt}`).digest('hex')}`;
      const make = async () => {
        try {
          const made = await creations.makeByKey(key, async () => ({ generator: 'prompt' as const, input: await aiProvider.generate(prompt) }), user.uuid);
          await log(made.creation.hash);
          return made;
        } catch (error) {
          await log(null);
          if (error instanceof AiImageError) {
            request.log.warn({ detail: error.detail }, 'the AI image service failed');
            throw new HttpError(502, error.message);
          }
          throw error;
        }
      };
      return answerMade(request, reply, make);
    },
  );

  app.get(
    '/api/gallery/creations/:hash/preview',
    {
      config: { auth: 'session' },
      schema: {
        summary: "A made cape's 320 x 180 preview (the maker's own creation, or a gallery item the caller may see)",
        params: z.object({ hash: textureHashSchema }),
        response: { 200: fileResponse('image/png', 'The preview'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const access = await creations.access(request.params.hash, await requireUser(request));
      const preview = access === 'none' ? null : await creations.preview(request.params.hash);
      if (!preview) throw new HttpError(404, creatorMessages.expired);
      reply.header('cache-control', 'private, max-age=3600');
      return sendFile(reply, 'image/png', preview);
    },
  );

  /**
   * A creation the caller may wear or share (their own within its lifetime, or a listed gallery item) as the pipeline's
   * shape; otherwise, or when it is no longer kept (or is not a cape), a 410, so that nothing else can be told apart.
   */
  const usableTexture = async (hash: string, user: UserRow): Promise<EncodedTexture> => {
    if ((await creations.access(hash, user)) !== 'use') throw new HttpError(410, creatorMessages.expired);
    const row = await db.selectFrom('textures').select(['hash', 'width', 'height', 'frames']).where('hash', '=', hash).executeTakeFirst();
    const bytes = row ? await library.read(hash) : null;
    if (!row || !bytes || row.width % 64 !== 0 || row.height % (row.width / 2) !== 0) throw new HttpError(410, creatorMessages.expired);
    const blocked = await db.selectFrom('texture_blocklist').select('hash').where('hash', '=', hash).executeTakeFirst();
    if (blocked) throw new HttpError(422, BLOCKLISTED_MESSAGE);
    return { bytes, hash, width: row.width, height: row.height, frames: row.frames };
  };

  app.post(
    '/api/gallery/creations/use',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit('creation-use', options.uploadsPerTenMinutes, 10 * 60_000, 'Too many cape uploads. Try again in 10 minutes.'),
      },
      schema: { summary: 'Wear a made cape', body: creationUseBodySchema, response: { 200: uploadResultSchema, ...errorResponses } },
    },
    async (request) => {
      const user = await requireUser(request);
      const texture = await usableTexture(request.body.hash, user);
      const animated = texture.height > texture.width / 2;
      const still = animated ? await imageJobs.run('stripStill', texture.bytes, user.uuid) : texture;
      await assignPlayerTextures(options, user.uuid, 'cape', { still, strip: animated ? texture : null });
      return { success: true as const, cape: `${texturesBaseUrl}/${still.hash}` };
    },
  );

  app.post(
    '/api/gallery/creations/share',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit('creation-share', options.galleryUploadsPerTenMinutes, 10 * 60_000, galleryMessages.tooManyUploads),
      },
      schema: {
        summary: 'Share a made cape to the gallery',
        body: creationShareBodySchema,
        response: { 200: galleryNewResultSchema, 201: galleryNewResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { hash, title, tags } = request.body;
      await checkTitleAndTags(db, title, tags);
      const texture = await usableTexture(hash, user);
      const animated = texture.height > texture.width / 2;
      const item = {
        hash,
        stripHash: animated ? hash : null,
        title,
        authorUuid: user.uuid,
        type: animated ? GALLERY_TYPES.animated : GALLERY_TYPES.cape,
        tags,
      };
      const created = await storeAndPoint(library, [{ texture, kind: 'gallery' }], () => createGalleryItem(db, item));
      // The same picture may be a hidden item already (the caller made it too): that is answered as if it were gone.
      if (!created && !(await galleryItemOwner(db, hash))) throw new HttpError(410, creatorMessages.expired);
      return reply.status(created ? 201 : 200).send({ success: true as const, hash, existing: !created });
    },
  );
}
