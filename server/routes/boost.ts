// The boost page's calls (/api/premium/boost/discord/...) and the premium role code
// (/api/premium/discord/generate), for logged-in players.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { successSchema } from '../../src/lib/schemas/common.ts';
import {
  codeSchema,
  cosmeticBodySchema,
  cosmeticSchema,
  successFlagSchema,
  usableCosmeticsSchema,
} from '../../src/lib/schemas/premium.ts';
import { PREMIUM_FEATURES, PREMIUM_ITEMS } from '../../src/lib/premium.ts';
import { requireUser } from '../auth/plugin.ts';
import { HttpError } from '../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { chooseCosmetic, issueLinkCode, issueRoleCode, linkState, unlinkPlayer } from '../premium/boost.ts';
import type { AppContext } from '../operations/app-context.ts';

const BOOST = '/api/premium/boost/discord';
const session = { auth: 'session' } as const;

/** Registers the boost page's calls and the premium role code. */
export async function boostRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus } = options;
  /** The logged-in player's community link. */
  const linkOf = async (request: FastifyRequest) => linkState(db, (await requireUser(request)).uuid);

  app.post(
    `${BOOST}/generate`,
    {
      config: session,
      schema: {
        summary: 'A one-time code (10 minutes) to send the community bot, linking the community account',
        response: { 200: codeSchema, ...errorResponses },
      },
    },
    async (request) => ({ code: await issueLinkCode(db, (await requireUser(request)).uuid) }),
  );

  app.get(
    `${BOOST}/linked`,
    {
      config: session,
      schema: {
        summary: "Whether the player's community account is linked",
        response: { 200: successFlagSchema, ...errorResponses },
      },
    },
    async (request) => ({ success: (await linkOf(request)).linked }),
  );

  app.get(
    `${BOOST}/boosting`,
    {
      config: session,
      schema: {
        summary: "Whether the player's linked community account boosts the community",
        response: { 200: successFlagSchema, ...errorResponses },
      },
    },
    async (request) => ({ success: (await linkOf(request)).boosting }),
  );

  app.get(
    `${BOOST}/usable`,
    {
      config: session,
      schema: {
        summary: 'The cosmetics a boost can give, by key',
        response: { 200: usableCosmeticsSchema, ...errorResponses },
      },
    },
    async () => ({ cosmetics: Object.fromEntries(PREMIUM_ITEMS.map((item) => [item, PREMIUM_FEATURES[item].name])) }),
  );

  app.get(
    `${BOOST}/cosmetic`,
    {
      config: session,
      schema: {
        summary: 'The cosmetic the player chose for their boost',
        response: { 200: cosmeticSchema, ...errorResponses },
      },
    },
    async (request) => ({ cosmetic: (await linkOf(request)).cosmetic }),
  );

  app.post(
    `${BOOST}/cosmetic`,
    {
      config: session,
      schema: {
        summary: 'Choose the cosmetic a boost gives (linked and boosting only); the mod API shows it at once',
        body: cosmeticBodySchema,
        response: { 200: cosmeticSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      if (!(await chooseCosmetic(db, user.uuid, request.body.cosmetic)))
        throw new HttpError(403, 'Link your community account and boost the server first.');
      await bus.publish(user.uuid);
      return { cosmetic: request.body.cosmetic };
    },
  );

  app.post(
    `${BOOST}/remove`,
    {
      config: session,
      schema: {
        summary: 'Unlink the community account (a boost cosmetic ends)',
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      if (!(await unlinkPlayer(db, user.uuid))) throw new HttpError(404, 'Your community account is not linked.');
      await bus.publish(user.uuid);
      return { success: true as const };
    },
  );

  app.post(
    '/api/premium/discord/generate',
    {
      config: session,
      schema: {
        summary: "A one-time code (24 hours) for the community's premium role, for players who paid for premium",
        response: { 200: codeSchema, ...errorResponses },
      },
    },
    async (request) => {
      const outcome = await issueRoleCode(db, (await requireUser(request)).uuid);
      if (outcome === 'no-premium') throw new HttpError(403, 'The premium role is for players with a premium feature.');
      if (outcome === 'boost-only')
        throw new HttpError(403, 'Premium from boosting does not come with the premium role.');
      return { code: outcome };
    },
  );
}
