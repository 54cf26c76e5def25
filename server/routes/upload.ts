// Cape and ears uploads: POST a file, DELETE the current one; every file rule of the upload pages is checked again
// here, and a picture moderators removed is refused.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Refusal } from '../../src/lib/refusals.ts';
import { uploadNoticeSchema, uploadRefusalSchema } from '../../src/lib/schemas/uploads.ts';
import {
  CAPE_MAX_BYTES,
  EARS_MAX_BYTES,
  NO_FILE_REFUSAL,
  textureRefusal,
  tooManyUploadsMessage,
} from '../../src/lib/texture-rules.ts';
import { nameFromFileName } from '../../src/lib/wardrobe-rules.ts';
import { requireUser } from '../auth/plugin.ts';
import { sendRefusal } from '../http/refusal-reply.ts';
import { textureUrl } from '../http/texture-url.ts';
import { textureChangeRateLimit } from '../http/user-rate-limit.ts';
import { multipartBody, readMultipart } from '../http/multipart.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { PlayerSlot } from '../textures/library/player-columns.ts';
import type { AppContext } from '../operations/app-context.ts';

/** One of a player's texture slots: where it is uploaded and its limits. */
interface TextureSlot {
  name: PlayerSlot;
  maxBytes: number;
  /** The refusal of a file over `maxBytes`. */
  tooBig: Refusal;
}

const slots: TextureSlot[] = [
  { name: 'cape', maxBytes: CAPE_MAX_BYTES, tooBig: textureRefusal('capeTooBig') },
  { name: 'ears', maxBytes: EARS_MAX_BYTES, tooBig: textureRefusal('earsTooBig') },
];

/** Registers POST/DELETE /api/upload-cape and /api/upload-ears. */
export async function uploadRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { intake } = options;
  const { publicBaseUrl } = options.config;

  for (const slot of slots) {
    const rateLimited: Refusal = { reason: 'rate_limited', message: tooManyUploadsMessage(slot.name) };
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
          oauthScope: 'textures:upload',
          rateLimit: textureChangeRateLimit(options.config.textureUploadsPerTenMinutes, rateLimited.message, () =>
            intake.refuse(slot.name, rateLimited),
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
        const { file: upload, fileName } = await readMultipart(request, reply, slot.maxBytes);
        if (upload === null) return sendRefusal(reply, intake.refuse(slot.name, NO_FILE_REFUSAL), 'upload');
        if (upload === 'too-big') return sendRefusal(reply, intake.refuse(slot.name, slot.tooBig), 'upload');
        const worn = await intake.upload(slot.name, upload, user.uuid, nameFromFileName(fileName));
        if ('refusal' in worn) return sendRefusal(reply, worn.refusal, 'upload');
        return {
          success: true as const,
          [slot.name]: textureUrl(publicBaseUrl, worn.stillHash),
          ...(worn.notice ? { notice: worn.notice } : {}),
        };
      },
    );

    app.delete(
      `/api/upload-${slot.name}`,
      {
        config: {
          auth: 'session',
          oauthScope: 'wardrobe:write',
          rateLimit: textureChangeRateLimit(options.config.textureUploadsPerTenMinutes, rateLimited.message),
        },
        schema: { summary: `Remove the player's ${slot.name}`, response: { 200: uploaded, ...errorResponses } },
      },
      async (request) => {
        const user = await requireUser(request);
        await intake.takeOff(slot.name, user.uuid);
        return { success: true as const, [slot.name]: null };
      },
    );
  }
}
