// Cape and ears uploads (SPEC §7 Upload): POST a file, DELETE the current one; every SPEC §5 rule is checked again here.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { uploadRefusalSchema } from '../../src/lib/api-schemas.ts';
import { CAPE_MAX_BYTES, EARS_MAX_BYTES, textureMessages } from '../../src/lib/texture-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { multipartBody, readMultipart } from '../http/multipart.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { processCape, processEars, TextureRejected, type EncodedTexture } from '../textures/process.ts';

/** The message when a request carries no file. */
export const NO_FILE_MESSAGE = 'Choose a file to upload';

function refuse(reply: FastifyReply, msg: string, status = 422) {
  return reply.status(status).send({ success: false, msg });
}

/** One of a player's texture slots: where it is uploaded, its rules, and the user columns it fills. */
interface TextureSlot {
  name: 'cape' | 'ears';
  maxBytes: number;
  tooBigMessage: string;
  /** Checks and re-encodes an upload into the still texture and an optional strip. */
  process(upload: Buffer): Promise<{ still: EncodedTexture; strip: EncodedTexture | null }>;
  stillColumn: 'cape_hash' | 'ears_hash';
  stripColumn: 'cape_strip_hash' | null;
}

const slots: TextureSlot[] = [
  {
    name: 'cape',
    maxBytes: CAPE_MAX_BYTES,
    tooBigMessage: textureMessages.capeTooBig,
    process: processCape,
    stillColumn: 'cape_hash',
    stripColumn: 'cape_strip_hash',
  },
  {
    name: 'ears',
    maxBytes: EARS_MAX_BYTES,
    tooBigMessage: textureMessages.earsTooBig,
    process: async (upload) => ({ still: await processEars(upload), strip: null }),
    stillColumn: 'ears_hash',
    stripColumn: null,
  },
];

/** Registers POST/DELETE /api/upload-cape and /api/upload-ears. */
export async function uploadRoutes(instance: FastifyInstance, options: { db: Db; library: TextureLibrary; bus: InvalidationBus; texturesBaseUrl: string }) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, library, bus, texturesBaseUrl } = options;

  /** Points a player's slot at new hashes (or none), releases what it pointed at before and tells the profile caches. */
  const setSlot = async (uuid: string, slot: TextureSlot, still: string | null, strip: string | null) => {
    const columns = slot.stripColumn ? [slot.stillColumn, slot.stripColumn] : [slot.stillColumn];
    const before = await db.selectFrom('users').select(columns).where('uuid', '=', uuid).executeTakeFirstOrThrow();
    const values = slot.stripColumn ? { [slot.stillColumn]: still, [slot.stripColumn]: strip } : { [slot.stillColumn]: still };
    await db.updateTable('users').set(values).where('uuid', '=', uuid).execute();
    const previous = Object.values(before as Record<string, string | null>);
    await library.release(previous.filter((hash) => hash !== still && hash !== strip));
    await bus.publish(uuid);
  };

  for (const slot of slots) {
    const uploaded = z.object({
      success: z.literal(true),
      [slot.name]: z
        .string()
        .nullable()
        .meta({ description: `The ${slot.name} texture URL, or null once removed` }),
    });
    const kilobytes = slot.maxBytes / 1000;
    app.post(
      `/api/upload-${slot.name}`,
      {
        config: { auth: 'session' },
        schema: {
          summary: `Upload the player's ${slot.name}`,
          ...multipartBody({
            file: z.string().meta({ format: 'binary', description: `${slot.name === 'cape' ? 'PNG or GIF' : 'PNG'}, at most ${kilobytes} KB` }),
          }),
          response: { 200: uploaded, 413: uploadRefusalSchema, 422: uploadRefusalSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const upload = (await readMultipart(request, reply, slot.maxBytes)).file;
        if (upload === null) return refuse(reply, NO_FILE_MESSAGE);
        if (upload === 'too-big') return refuse(reply, slot.tooBigMessage, 413);
        let texture;
        try {
          texture = await slot.process(upload);
        } catch (error) {
          if (error instanceof TextureRejected) return refuse(reply, error.message);
          throw error;
        }
        const still = await library.put(texture.still, slot.name);
        const strip = texture.strip ? await library.put(texture.strip, 'cape-strip') : null;
        await setSlot(user.uuid, slot, still, strip);
        await library.ensure(texture.still, slot.name);
        if (texture.strip) await library.ensure(texture.strip, 'cape-strip');
        return { success: true as const, [slot.name]: `${texturesBaseUrl}/${still}` };
      },
    );

    app.delete(
      `/api/upload-${slot.name}`,
      { config: { auth: 'session' }, schema: { summary: `Remove the player's ${slot.name}`, response: { 200: uploaded, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(request);
        await setSlot(user.uuid, slot, null, null);
        return { success: true as const, [slot.name]: null };
      },
    );
  }
}
