// The shape of a call by which a logged-in player changes what they wear ("Wear this" on a gallery item, wearing,
// taking off or removing a wardrobe item, wearing a creator's cape): a POST with a checked body, counted against the
// player's one budget of texture changes, that answers the change or its refusal.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppScope } from '../../src/lib/app-scopes.ts';
import type { Refusal } from '../../src/lib/refusals.ts';
import { sendRefusal } from './refusal-reply.ts';
import { errorResponses } from './route-schemas.ts';
import { textureChangeRateLimit } from './user-rate-limit.ts';

/** One texture change call: its path and description, its body and answer, and the change itself. */
export interface TextureChangeRoute<Body extends z.ZodType, Answer extends z.ZodType<object>> {
  path: string;
  summary: string;
  body: Body;
  answer: Answer;
  /** The scope an app's access token needs to make the change for the player; without it, only the session may. */
  oauthScope?: AppScope;
  /** How many texture changes a player may make in 10 minutes (TEXTURE_UPLOADS_PER_10_MINUTES). */
  changesPerTenMinutes: number;
  /** What a player past that budget is told. */
  tooManyMessage: string;
  /** Makes the change (it finds the player itself): the answer, or the refusal to send. */
  change: (body: z.output<Body>, request: FastifyRequest) => Promise<z.output<Answer> | { refusal: Refusal }>;
}

/** Registers a texture change call: logged-in players only, rate-limited, a refusal answered with its own status. */
export function textureChangeRoute<Body extends z.ZodType, Answer extends z.ZodType<object>>(
  app: FastifyInstance,
  route: TextureChangeRoute<Body, Answer>,
): void {
  const { oauthScope, changesPerTenMinutes, tooManyMessage } = route;
  // The answer is typed by `change`; the app's own types cannot follow a schema given as a type parameter.
  app.post(
    route.path,
    {
      config: {
        auth: 'session',
        ...(oauthScope && { oauthScope }),
        rateLimit: textureChangeRateLimit(changesPerTenMinutes, tooManyMessage),
      },
      schema: { summary: route.summary, body: route.body, response: { 200: route.answer, ...errorResponses } },
    },
    async (request, reply) => {
      const result = await route.change(request.body as z.output<Body>, request);
      if ('refusal' in result) return sendRefusal(reply, result.refusal);
      return result;
    },
  );
}
