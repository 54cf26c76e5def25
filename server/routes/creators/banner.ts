// The banner cape creator: a banner from a banner editor's code drawn on the front over a top-to-bottom fade.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BANNER_SERVICES } from '../../../src/lib/banner-url.ts';
import { BANNER_ALIGNMENTS, creatorMessages } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { decodeBannerCode } from '../../textures/generators/banner/codes.ts';
import { renderBanner } from '../../textures/generators/banner/render.ts';
import { parseHexColour } from '../../textures/pipeline/raw-image.ts';
import { answerCreation, creationImageResponses, creatorCallConfig, hexColourParam } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers POST /api/gallery/banner-capes/…. */
export async function bannerCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/gallery/banner-capes/:service/:bannerId/:top/:bottom/:alignment',
    {
      config: creatorCallConfig(options.config.creators),
      schema: {
        summary: 'Make a cape of a banner from a banner editor (lmc: LivzMC, pmc: Planet Minecraft)',
        params: z.object({
          service: z.enum(BANNER_SERVICES),
          bannerId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, { message: creatorMessages.bannerCode }),
          top: hexColourParam,
          bottom: hexColourParam,
          alignment: z.enum(BANNER_ALIGNMENTS),
        }),
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { service, bannerId, top, bottom, alignment } = request.params;
      const banner = decodeBannerCode(service, bannerId);
      if (!banner) throw new HttpError(422, creatorMessages.bannerCode, { bannerId: [creatorMessages.bannerCode] });
      const face = renderBanner(banner);
      return answerCreation(options, request, reply, user.uuid, {
        generator: 'banner',
        input: { banner: face, top: parseHexColour(top)!, bottom: parseHexColour(bottom)!, alignment },
      });
    },
  );
}
