// The OptiFine-style cape creator: a design or custom colours drawn with the fade and the mark, or a player's OptiFine
// cape.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { creatorMessages, OPTIFINE_DESIGNS, type OptifineDesign } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { HttpError, whenServiceFails } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { fetchOptifineCape } from '../../integrations/optifine.ts';
import { designColours } from '../../textures/generators/optifine-cape.ts';
import { parseHexColour } from '../../textures/pipeline/raw-image.ts';
import { answerCreation, creationImageResponses, creatorCallConfig, hexColourParam, usernameParam } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers POST /api/gallery/optifine-capes/custom/… and /api/gallery/optifine-capes/:name. */
export async function optifineCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const settings = options.config.creators;

  app.post(
    '/api/gallery/optifine-capes/custom/:top/:bottom/:text/:shadow',
    {
      config: creatorCallConfig(settings),
      schema: {
        summary: 'Make an OptiFine-style cape in custom colours',
        params: z.object({ top: hexColourParam, bottom: hexColourParam, text: hexColourParam, shadow: hexColourParam }),
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { top, bottom, text, shadow } = request.params;
      const colours = {
        top: parseHexColour(top)!,
        bottom: parseHexColour(bottom)!,
        text: parseHexColour(text)!,
        shadow: parseHexColour(shadow)!,
      };
      return answerCreation(options, request, reply, user.uuid, { generator: 'optifine', input: colours });
    },
  );

  app.post(
    '/api/gallery/optifine-capes/:name',
    {
      config: creatorCallConfig(settings),
      schema: {
        summary: "Make an OptiFine-style cape from a design, or fetch a player's OptiFine cape",
        description: `A design name (${OPTIFINE_DESIGNS.join(', ')}) makes that design; any other name is looked up on the OptiFine cape server.`,
        params: z.object({ name: usernameParam }),
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { name } = request.params;
      if ((OPTIFINE_DESIGNS as readonly string[]).includes(name)) {
        return answerCreation(options, request, reply, user.uuid, {
          generator: 'optifine',
          input: designColours(name as OptifineDesign),
        });
      }
      const file = await fetchOptifineCape(settings.optifineCapesUrl, name).catch(
        whenServiceFails(creatorMessages.optifineServiceDown),
      );
      if (!file) throw new HttpError(404, creatorMessages.optifineNoCape);
      return answerCreation(options, request, reply, user.uuid, { generator: 'optifineFile', input: file });
    },
  );
}
