// The image to cape creator: a picture becomes the front of a cape (and, when asked, the elytra).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CREATOR_MAX_SCALE, CREATOR_MIN_SCALE, creatorMessages } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import {
  answerCreation,
  creationImageResponses,
  creatorCallConfig,
  readCapeSettings,
  readCreatorForm,
} from './shared.ts';
import { HttpError } from '../../http/errors.ts';
import { multipartBody } from '../../http/multipart.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers POST /api/gallery/cape-creator. */
export async function imageCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/gallery/cape-creator',
    {
      config: creatorCallConfig(options.config.creators),
      schema: {
        summary: 'Make a cape from a picture (image to cape)',
        ...multipartBody({
          file: z.string().meta({ format: 'binary', description: 'PNG, JPEG, GIF or WebP, at most 2 MB' }),
          scale: z
            .string()
            .meta({ description: `${CREATOR_MIN_SCALE}..${CREATOR_MAX_SCALE}: the cape is 64·2ⁿ⁻¹ wide` }),
          color: z
            .string()
            .meta({ description: "Hex colour of the other faces, or auto (the picture's average colour)" }),
          elytra: z.string().meta({ description: 'true to put the picture on the elytra too' }),
        }),
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { fields, files } = await readCreatorForm(request, reply, ['file']);
      if (!files.file) throw new HttpError(422, creatorMessages.inputMissing, { file: [creatorMessages.inputMissing] });
      return answerCreation(options, request, reply, user.uuid, {
        generator: 'image',
        input: { image: files.file, ...readCapeSettings(fields, true) },
      });
    },
  );
}
