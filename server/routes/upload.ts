// Cape and ears uploads (SPEC §7 Upload): POST a file, DELETE the current one; every SPEC §5 rule is checked again here.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CAPE_MAX_BYTES, EARS_MAX_BYTES, textureMessages } from '../../src/lib/texture-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { readMultipart } from '../http/multipart.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { processCape, processEars, TextureRejected } from '../textures/process.ts';

/** The message when a request carries no file. */
export const NO_FILE_MESSAGE = 'Choose a file to upload';

function refuse(reply: FastifyReply, msg: string) {
  return reply.status(422).send({ success: false, msg });
}

/** Registers POST/DELETE /api/upload-cape and /api/upload-ears. */
export async function uploadRoutes(app: FastifyInstance, options: { db: Db; library: TextureLibrary; bus: InvalidationBus; texturesBaseUrl: string }) {
  const { db, library, bus, texturesBaseUrl } = options;
  const textureUrl = (hash: string) => `${texturesBaseUrl}/${hash}`;

  const currentTextures = (uuid: string) =>
    db.selectFrom('users').select(['cape_hash', 'cape_strip_hash', 'ears_hash']).where('uuid', '=', uuid).executeTakeFirstOrThrow();

  app.post('/api/upload-cape', async (request, reply) => {
    const user = await requireUser(request);
    const upload = (await readMultipart(request, CAPE_MAX_BYTES)).file;
    if (upload === null) return refuse(reply, NO_FILE_MESSAGE);
    if (upload === 'too-big') return refuse(reply, textureMessages.capeTooBig);
    let cape;
    try {
      cape = await processCape(upload);
    } catch (error) {
      if (error instanceof TextureRejected) return refuse(reply, error.message);
      throw error;
    }
    const before = await currentTextures(user.uuid);
    const stillHash = await library.put(cape.still, 'cape');
    const stripHash = cape.strip ? await library.put(cape.strip, 'cape-strip') : null;
    await db.updateTable('users').set({ cape_hash: stillHash, cape_strip_hash: stripHash }).where('uuid', '=', user.uuid).execute();
    await library.ensure(cape.still, 'cape');
    if (cape.strip) await library.ensure(cape.strip, 'cape-strip');
    await library.release([before.cape_hash, before.cape_strip_hash].filter((hash) => hash !== stillHash && hash !== stripHash));
    await bus.publish(user.uuid);
    return { success: true, cape: textureUrl(stillHash) };
  });

  app.delete('/api/upload-cape', async (request) => {
    const user = await requireUser(request);
    const before = await currentTextures(user.uuid);
    await db.updateTable('users').set({ cape_hash: null, cape_strip_hash: null }).where('uuid', '=', user.uuid).execute();
    await library.release([before.cape_hash, before.cape_strip_hash]);
    await bus.publish(user.uuid);
    return { success: true, cape: null };
  });

  app.post('/api/upload-ears', async (request, reply) => {
    const user = await requireUser(request);
    const upload = (await readMultipart(request, EARS_MAX_BYTES)).file;
    if (upload === null) return refuse(reply, NO_FILE_MESSAGE);
    if (upload === 'too-big') return refuse(reply, textureMessages.earsTooBig);
    let ears;
    try {
      ears = await processEars(upload);
    } catch (error) {
      if (error instanceof TextureRejected) return refuse(reply, error.message);
      throw error;
    }
    const before = await currentTextures(user.uuid);
    const hash = await library.put(ears, 'ears');
    await db.updateTable('users').set({ ears_hash: hash }).where('uuid', '=', user.uuid).execute();
    await library.ensure(ears, 'ears');
    if (before.ears_hash !== hash) await library.release([before.ears_hash]);
    await bus.publish(user.uuid);
    return { success: true, ears: textureUrl(hash) };
  });

  app.delete('/api/upload-ears', async (request) => {
    const user = await requireUser(request);
    const before = await currentTextures(user.uuid);
    await db.updateTable('users').set({ ears_hash: null }).where('uuid', '=', user.uuid).execute();
    await library.release([before.ears_hash]);
    await bus.publish(user.uuid);
    return { success: true, ears: null };
  });
}
