// Cape and ears uploads: POST a file, DELETE the current one; every file rule of the upload pages is checked again
// here, and a picture moderators removed is refused.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { uploadNoticeSchema, uploadRefusalSchema } from '../../src/lib/schemas/uploads.ts';
import {
  CAPE_MAX_BYTES,
  EARS_MAX_BYTES,
  NO_FILE_MESSAGE,
  textureMessages,
  tooManyUploadsMessage,
} from '../../src/lib/texture-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import { HttpError } from '../http/errors.ts';
import { textureUrl } from '../http/texture-url.ts';
import { perUserRateLimit } from '../http/user-rate-limit.ts';
import { multipartBody, readMultipart } from '../http/multipart.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { uploadRejectionReason } from '../operations/metrics.ts';
import { assignPlayerTextures, clearPlayerTextures, type PlayerSlot } from '../textures/library/assign.ts';
import { refuseBlocklisted } from '../textures/library/blocklist.ts';
import { readUpload, TextureRejected } from '../textures/pipeline/process.ts';
import type { AppContext } from '../operations/app-context.ts';

function refuse(reply: FastifyReply, msg: string, status = 422) {
  return reply.status(status).send({ success: false, msg });
}

/** One of a player's texture slots: where it is uploaded and its rules. */
interface TextureSlot {
  name: PlayerSlot;
  maxBytes: number;
  tooBigMessage: string;
  /**
   * The image work that checks and re-encodes an upload into the still texture, an optional strip and an optional note
   * for the player.
   */
  work: 'cape' | 'ears';
}

const slots: TextureSlot[] = [
  { name: 'cape', maxBytes: CAPE_MAX_BYTES, tooBigMessage: textureMessages.capeTooBig, work: 'cape' },
  {
    name: 'ears',
    maxBytes: EARS_MAX_BYTES,
    tooBigMessage: textureMessages.earsTooBig,
    work: 'ears',
  },
];

/** Registers POST/DELETE /api/upload-cape and /api/upload-ears. */
export async function uploadRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { imageJobs, metrics } = options;
  const { publicBaseUrl } = options.config;

  for (const slot of slots) {
    const count = (result: string) => metrics.countUpload(slot.name, result);
    const uploaded = z.object({
      success: z.literal(true),
      [slot.name]: z
        .string()
        .nullable()
        .meta({ description: `The ${slot.name} texture URL, or null once removed` }),
      notice: uploadNoticeSchema,
    });
    const kilobytes = slot.maxBytes / 1000;
    app.post(
      `/api/upload-${slot.name}`,
      {
        config: {
          auth: 'session',
          rateLimit: perUserRateLimit(
            `upload-${slot.name}`,
            options.config.textureUploadsPerTenMinutes,
            10 * 60_000,
            tooManyUploadsMessage(slot.name),
            () => count('rate_limited'),
          ),
        },
        schema: {
          summary: `Upload the player's ${slot.name}`,
          ...multipartBody({
            file: z.string().meta({
              format: 'binary',
              description: `${slot.name === 'cape' ? 'PNG or GIF' : 'PNG'}, at most ${kilobytes} KB`,
            }),
          }),
          response: { 200: uploaded, 413: uploadRefusalSchema, 422: uploadRefusalSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const upload = (await readMultipart(request, reply, slot.maxBytes)).file;
        if (upload === null) {
          count('no_file');
          return refuse(reply, NO_FILE_MESSAGE);
        }
        if (upload === 'too-big') {
          count('too_big');
          return refuse(reply, slot.tooBigMessage, 413);
        }
        let texture;
        try {
          texture = await imageJobs.run(slot.work, readUpload(upload), user.uuid);
          await refuseBlocklisted(options.db, texture);
        } catch (error) {
          if (error instanceof HttpError) count(uploadRejectionReason(error)); // the image queue's refusals
          if (!(error instanceof TextureRejected)) throw error;
          count(uploadRejectionReason(error));
          return refuse(reply, error.message);
        }
        await assignPlayerTextures(options, user.uuid, slot.name, texture, { source: 'upload' });
        count('ok');
        return {
          success: true as const,
          [slot.name]: textureUrl(publicBaseUrl, texture.still.hash),
          ...(texture.notice ? { notice: texture.notice } : {}),
        };
      },
    );

    app.delete(
      `/api/upload-${slot.name}`,
      {
        config: { auth: 'session' },
        schema: { summary: `Remove the player's ${slot.name}`, response: { 200: uploaded, ...errorResponses } },
      },
      async (request) => {
        const user = await requireUser(request);
        await clearPlayerTextures(options, user.uuid, [slot.name]);
        return { success: true as const, [slot.name]: null };
      },
    );
  }
}
