// The animated cape creator: a GIF over an optional PNG background becomes a strip of 100 ms frames.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { creationSchema } from '../../../src/lib/schemas/creators.ts';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { answerCreation, creatorCallConfig, readCapeSettings, readCreatorForm } from './shared.ts';
import { HttpError } from '../../http/errors.ts';
import { multipartBody } from '../../http/multipart.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';
import type { Rgba } from '../../textures/pipeline/raw-image.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Registers POST /api/gallery/animated-cape-creator. */
export async function animatedCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/gallery/animated-cape-creator',
    {
      config: creatorCallConfig(options.config.creators),
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
      const { fields, files } = await readCreatorForm(request, reply, ['file', 'background']);
      if (!files.file) throw new HttpError(422, creatorMessages.inputMissing, { file: [creatorMessages.inputMissing] });
      const background = files.background && files.background.length > 0 ? files.background : null;
      if (background && !background.subarray(0, 8).equals(PNG_SIGNATURE)) {
        throw new HttpError(422, creatorMessages.backgroundType, { background: [creatorMessages.backgroundType] });
      }
      const { scale, colour, elytra } = readCapeSettings(fields, false);
      const input = { gif: files.file, background, scale, colour: colour as Rgba, elytra };
      return answerCreation(options, request, reply, user.uuid, { generator: 'animated', input }, true);
    },
  );
}
