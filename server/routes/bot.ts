// The chat-community bot's API (bearer DISCORD_BOT_KEY): bind a link code to a member, report a member's boosting, list
// linked members for the periodic re-check, unlink a member, and claim a premium role code. Calls with the key are
// rate-limited all together (checked key first); every change is audited as the bot's.
import type { FastifyInstance } from 'fastify';
import {
  botBoostingBodySchema,
  botCodeBodySchema,
  botLinksQuerySchema,
  botLinksSchema,
  botMemberBodySchema,
  botPlayerSchema,
} from '../../src/lib/schemas/bot.ts';
import { HttpError } from '../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { keyHolderRateLimit } from '../http/user-rate-limit.ts';
import {
  bindLinkCode,
  claimRoleCode,
  linkedMembers,
  setBoosting,
  unlinkMember,
  type LinkedPlayer,
} from '../premium/boost.ts';
import type { AppContext } from '../operations/app-context.ts';

const UNKNOWN_MEMBER = 'No player is linked to that member.';

/** Registers the bot's calls. */
export async function botRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus } = options;
  const config = {
    auth: 'bot' as const,
    rateLimit: keyHolderRateLimit(
      'bot-api',
      options.config.botCallsPerMinute,
      60_000,
      'Too many bot calls. Wait a minute.',
    ),
  };
  const answer = async (player: LinkedPlayer | null, missing: string, publish = true) => {
    if (!player) throw new HttpError(404, missing);
    if (publish) await bus.publish(player.uuid);
    return { success: true as const, uuid: player.uuid, username: player.username };
  };
  const playerAnswer = { 200: botPlayerSchema, ...errorResponses };

  app.post(
    '/api/bot/link',
    {
      config,
      schema: {
        summary: "Bind a player's link code to the member who sent it",
        body: botCodeBodySchema,
        response: playerAnswer,
      },
    },
    async (request) =>
      answer(
        await bindLinkCode(db, request.body.code, request.body.discordId),
        'That link code is wrong or has expired.',
      ),
  );

  app.post(
    '/api/bot/boosting',
    {
      config,
      schema: {
        summary: 'Report whether a linked member boosts the community (a boost cosmetic starts or ends)',
        body: botBoostingBodySchema,
        response: playerAnswer,
      },
    },
    async (request) => answer(await setBoosting(db, request.body.discordId, request.body.boosting), UNKNOWN_MEMBER),
  );

  app.get(
    '/api/bot/links',
    {
      config,
      schema: {
        summary: 'Linked members in member id order, for the periodic re-check',
        querystring: botLinksQuerySchema,
        response: { 200: botLinksSchema, ...errorResponses },
      },
    },
    async (request) => {
      const data = await linkedMembers(db, request.query.after, request.query.limit);
      return { data, next: data.length === request.query.limit ? data.at(-1)!.discordId : null };
    },
  );

  app.post(
    '/api/bot/unlink',
    {
      config,
      schema: {
        summary: "Remove a member's link (a boost cosmetic ends)",
        body: botMemberBodySchema,
        response: playerAnswer,
      },
    },
    async (request) => answer(await unlinkMember(db, request.body.discordId), UNKNOWN_MEMBER),
  );

  app.post(
    '/api/bot/role',
    {
      config,
      schema: {
        summary: "Claim a player's premium role code for a member (once)",
        body: botCodeBodySchema,
        response: playerAnswer,
      },
    },
    async (request) =>
      answer(
        await claimRoleCode(db, request.body.code, request.body.discordId),
        'That premium role code is wrong, used or expired.',
        false,
      ),
  );
}
