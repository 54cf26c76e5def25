// The head cape creator: a player's face (from their skin, with the helmet layer when asked) shifted by the sliders.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { creatorMessages, noSkinMessage } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { HttpError, whenServiceFails } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { fetchSkinByName } from '../../integrations/mojang.ts';
import {
  answerCreation,
  booleanParam,
  creationImageResponses,
  creatorCallConfig,
  sliderParam,
  usernameParam,
} from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers POST /api/gallery/head-capes/…. */
export async function headCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const settings = options.config.creators;
  app.post(
    '/api/gallery/head-capes/:username/:red/:green/:blue/:brightness/:helmetOverlay',
    {
      config: creatorCallConfig(settings),
      schema: {
        summary: "Make a cape of a player's face",
        params: z.object({
          username: usernameParam,
          red: sliderParam,
          green: sliderParam,
          blue: sliderParam,
          brightness: sliderParam,
          helmetOverlay: booleanParam,
        }),
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { username: name, helmetOverlay, ...sliders } = request.params;
      const skin = await fetchSkinByName(
        {
          apiUrl: options.config.mojangApiUrl,
          sessionUrl: settings.mojangSessionUrl,
          allowPrivateAddresses: settings.allowPrivateAddresses,
        },
        name,
      ).catch(whenServiceFails(creatorMessages.playerServiceDown));
      if (!skin) throw new HttpError(404, noSkinMessage(name));
      return answerCreation(options, request, reply, user.uuid, {
        generator: 'head',
        input: { skin, helmet: helmetOverlay, ...sliders },
      });
    },
  );
}
