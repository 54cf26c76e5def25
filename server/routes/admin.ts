// The admin API (SPEC §7 Admin), every call for admins only (401 visitors, 403 players): the dashboard's totals,
// registration codes, ban reasons, bans, the gallery whitelist, edit user, both report queues, the AI cape log and the
// audit log. Every action is audited (server/admin/audit.ts).
import type { FastifyInstance } from 'fastify';
import {
  adminTextureRemovalSchema,
  adminBanBodySchema,
  adminProfileFlagsBodySchema,
  aiCapeLogPageSchema,
  registrationBodySchema,
  registrationCodeSchema,
  whitelistRowSchema,
  adminDeleteBodySchema,
  adminInfoSchema,
  adminUserRecordSchema,
  auditQuerySchema,
  auditRowSchema,
  galleryHashBodySchema,
  galleryReportRowSchema,
  reportActionBodySchema,
  userReportRowSchema,
  adminUuidBodySchema,
  banReasonsSchema,
  pageQuerySchema,
  paginatedSchema,
  successSchema,
  userBanRowSchema,
} from '../../src/lib/api-schemas.ts';
import { requireAdmin } from '../auth/plugin.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import { BAN_REASONS, isBanReason } from '../../src/lib/ban-reasons.ts';
import { banPlayer, unbanPlayer } from '../admin/bans.ts';
import { adminPlayerRecord, deletePlayer, refreshPlayerCache, removePlayerTexture, setCapeFlags } from '../admin/players.ts';
import { aiCapeLogPage, aiCapeLogTexture } from '../admin/ai-cape-logs.ts';
import { removeFromWhitelist, whitelistPage } from '../admin/whitelist.ts';
import { LOGIN_CODE_TTL_MS } from '../auth/login-codes.ts';
import { issueRegistrationCode, MOJANG_UNREACHABLE_HINT, type ProfileLookup } from '../accounts/registration.ts';
import { BANNED_MESSAGE } from './account.ts';
import { readSiteCounts } from '../db/site-counts.ts';
import { auditPage } from '../audit/read.ts';
import { answerGalleryReport, galleryReportPage } from '../admin/gallery-reports.ts';
import { answerUserReport, openUserReports, type UserReportRefusal } from '../admin/user-reports.ts';
import type { Db } from '../db/database.ts';
import { sumCounters, typeCounterKeys } from '../gallery/counts.ts';
import { HttpError, whenServiceFails } from '../http/errors.ts';
import { paginate } from '../http/pagination.ts';
import { errorResponses, fileResponse, sendFile, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import type { ProfileCache } from '../mod/profiles.ts';
import type { ImageJobs } from '../images/job-queue.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { z } from 'zod';
import { UNKNOWN_PLAYER_MESSAGE } from './users.ts';

/** Rows per page of the admin lists. */
export const ADMIN_PAGE_SIZE = 15;
/** What a moderator is told when the game profile service cannot be reached, with what the operator can do about it. */
export const PROFILE_SERVICE_DOWN_MESSAGE = `The game profile service could not be reached. Try again in a minute. ${MOJANG_UNREACHABLE_HINT}`;
const adminOnly = { auth: 'admin' } as const;

const REFUSALS: Record<UserReportRefusal, { status: number; message: string }> = {
  gone: { status: 404, message: 'That report was already answered or does not exist.' },
  unknown: { status: 404, message: UNKNOWN_PLAYER_MESSAGE },
  'already-banned': { status: 422, message: 'That player is already banned.' },
  'not-banned': { status: 422, message: 'That player is not banned.' },
  self: { status: 422, message: 'You cannot ban yourself.' },
};

/** Throws the answer for a refused ban or unban. */
function refuse(refusal: UserReportRefusal | null): void {
  if (refusal) throw new HttpError(REFUSALS[refusal].status, REFUSALS[refusal].message);
}

/** Rows per page of the AI cape log. */
export const AI_LOG_PAGE_SIZE = 10;

/** Registers the admin calls. */
export async function adminRoutes(
  instance: FastifyInstance,
  options: { db: Db; bus: InvalidationBus; library: TextureLibrary; imageJobs: ImageJobs; profiles: ProfileCache; lookup: ProfileLookup },
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, library, imageJobs, profiles, lookup } = options;
  const context = { db, library, bus, imageJobs };

  app.get(
    '/api/admin/info',
    { config: adminOnly, schema: { summary: "The admin dashboard's totals", response: { 200: adminInfoSchema, ...errorResponses } } },
    async () => {
      const [counts, totalGallery] = await Promise.all([readSiteCounts(db), sumCounters(db, typeCounterKeys(undefined))]);
      return { totalUsers: counts.users, totalPremium: counts.premium, totalGallery, totalCapes: counts.capes, totalEars: counts.ears };
    },
  );

  app.post(
    '/api/admin/registration/generate',
    {
      config: adminOnly,
      schema: {
        summary: "A player's one-time login code (as `cloakroom code` prints it); the account is created when needed",
        body: registrationBodySchema,
        response: { 200: registrationCodeSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { username } = request.body;
      const outcome = await issueRegistrationCode(db, lookup, username, {
        inTransaction: (trx, user) => recordAdminAction(trx, moderator, { action: 'REGISTRATION_CODE', target: user }),
      }).catch(whenServiceFails(PROFILE_SERVICE_DOWN_MESSAGE));
      if (outcome.kind === 'unknown') throw new HttpError(404, `No player is called "${username}".`, { username: [`No player is called "${username}".`] });
      if (outcome.kind === 'banned') throw new HttpError(403, BANNED_MESSAGE);
      return {
        success: true as const,
        code: outcome.code,
        username: outcome.user.username,
        uuid: outcome.user.uuid,
        expiresInMinutes: LOGIN_CODE_TTL_MS / 60_000,
      };
    },
  );

  app.get(
    '/api/admin/banreasons',
    { config: adminOnly, schema: { summary: 'The reasons a moderator picks from, by key', response: { 200: banReasonsSchema, ...errorResponses } } },
    async () => BAN_REASONS,
  );

  app.get(
    '/api/admin/bans/user',
    {
      config: adminOnly,
      schema: {
        summary: 'Banned players, newest ban first',
        querystring: pageQuerySchema,
        response: { 200: paginatedSchema(userBanRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = request.query.page;
      const [rows, total] = await Promise.all([
        db
          .selectFrom('user_bans')
          .innerJoin('users as player', 'player.uuid', 'user_bans.user_uuid')
          .leftJoin('users as reporter', 'reporter.uuid', 'user_bans.reported_by_uuid')
          .leftJoin('users as moderator', 'moderator.uuid', 'user_bans.banned_by_uuid')
          .select([
            'user_bans.id',
            'player.uuid',
            'player.username',
            'reporter.username as reported_by_username',
            'user_bans.reason_text',
            'moderator.username as banned_by_username',
            'user_bans.created_at',
          ])
          .orderBy('user_bans.id', 'desc')
          .limit(ADMIN_PAGE_SIZE)
          .offset((page - 1) * ADMIN_PAGE_SIZE)
          .execute(),
        db
          .selectFrom('user_bans')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      const data = rows.map(({ created_at, ...row }) => ({ ...row, createdAt: Number(created_at) }));
      return paginate(data, page, ADMIN_PAGE_SIZE, Number(total.count), '/api/admin/bans/user');
    },
  );

  app.post(
    '/api/admin/user/ban',
    {
      config: adminOnly,
      schema: {
        summary: 'Ban a player: their sessions end, they cannot log in, and the mod API hides their cape and ears',
        body: adminBanBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      if (!isBanReason(request.body.reason)) throw new HttpError(422, 'Choose a reason from the list.', { reason: ['Choose a reason from the list.'] });
      refuse(await banPlayer(db, bus, moderator, { uuid: request.body.uuid, reasonKey: request.body.reason }));
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/bans/user/delete',
    {
      config: adminOnly,
      schema: { summary: "Lift a player's ban", body: adminUuidBodySchema, response: { 200: successSchema, ...errorResponses } },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      refuse(await unbanPlayer(db, bus, moderator, request.body.uuid));
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/user/:username',
    {
      config: adminOnly,
      schema: {
        summary: "A player's record for the edit user page",
        params: z.object({ username: z.string().regex(/^[A-Za-z0-9_]{1,16}$/, { message: 'A username is 1 to 16 letters, digits or underscores.' }) }),
        response: { 200: adminUserRecordSchema, ...errorResponses },
      },
    },
    async (request) => {
      const record = await adminPlayerRecord(db, profiles, request.params.username);
      if (!record) throw new HttpError(404, UNKNOWN_PLAYER_MESSAGE);
      return record;
    },
  );

  /** Registers a POST /api/admin/user/... action on one player: 404 for an unknown player, `{success: true}` otherwise. */
  const playerAction = <B extends z.ZodType<{ uuid: string }>>(
    path: string,
    summary: string,
    body: B,
    act: (moderator: Moderator, uuid: string) => Promise<boolean>,
  ) =>
    app.post(path, { config: adminOnly, schema: { summary, body, response: { 200: successSchema, ...errorResponses } } }, async (request) => {
      const moderator = await requireAdmin(request);
      if (!(await act(moderator, (request.body as { uuid: string }).uuid))) throw new HttpError(404, UNKNOWN_PLAYER_MESSAGE);
      return { success: true as const };
    });

  playerAction('/api/admin/user/cache', "Drop every process's cached profile of a player", adminUuidBodySchema, (moderator, uuid) =>
    refreshPlayerCache(context, moderator, uuid),
  );
  for (const slot of ['cape', 'ears'] as const) {
    app.post(
      `/api/admin/user/${slot}/delete`,
      {
        config: adminOnly,
        schema: {
          summary: `Remove a player's ${slot}: it goes on the blocklist and off every player wearing the same picture`,
          body: adminUuidBodySchema,
          response: { 200: adminTextureRemovalSchema, ...errorResponses },
        },
      },
      async (request) => {
        const moderator = await requireAdmin(request);
        const removed = await removePlayerTexture(context, moderator, request.body.uuid, slot);
        if (removed === 'unknown') throw new HttpError(404, UNKNOWN_PLAYER_MESSAGE);
        if (removed === 'nothing') throw new HttpError(422, `That player has no ${slot} to delete.`);
        return { success: true as const, players: removed.players };
      },
    );
  }
  playerAction('/api/admin/user/delete', "Delete a player's account and everything it owns", adminDeleteBodySchema, (moderator, uuid) =>
    deletePlayer(context, moderator, uuid),
  );

  app.post(
    '/api/admin/user/profile',
    {
      config: adminOnly,
      schema: {
        summary: "Set a player's cape flags (animatedCape, capeGlint, upsideDown); only for a player who wears a cape",
        body: adminProfileFlagsBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { uuid, ...flags } = request.body;
      const refusal = await setCapeFlags(context, moderator, uuid, flags);
      if (refusal === 'unknown') throw new HttpError(404, UNKNOWN_PLAYER_MESSAGE);
      if (refusal === 'no-cape') throw new HttpError(422, 'That player has no cape, so the cape flags cannot be set.');
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/gallery/whitelist',
    {
      config: adminOnly,
      schema: {
        summary: 'Gallery textures marked safe by staff (they cannot be reported), newest first',
        querystring: pageQuerySchema,
        response: { 200: paginatedSchema(whitelistRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { rows, total } = await whitelistPage(db, request.query.page, ADMIN_PAGE_SIZE);
      return paginate(rows, request.query.page, ADMIN_PAGE_SIZE, total, '/api/admin/gallery/whitelist');
    },
  );

  app.post(
    '/api/admin/gallery/whitelist/delete',
    {
      config: adminOnly,
      schema: {
        summary: 'Take a texture off the whitelist, so players can report it again',
        body: galleryHashBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      if (!(await removeFromWhitelist(db, moderator, request.body.hash))) throw new HttpError(404, 'That texture is not on the whitelist.');
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/ai-cape-logs',
    {
      config: adminOnly,
      schema: {
        summary: "The AI cape creator's requests, newest first",
        querystring: pageQuerySchema,
        response: { 200: aiCapeLogPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = request.query.page;
      const { logs, total } = await aiCapeLogPage(db, page, AI_LOG_PAGE_SIZE);
      return { logs, pages: { total_count: total, per_page: AI_LOG_PAGE_SIZE, current_page: page } };
    },
  );

  app.get(
    '/api/admin/ai-cape-logs/:id',
    {
      config: adminOnly,
      schema: {
        summary: 'The texture an AI cape request made',
        params: z.object({
          id: z.coerce
            .number()
            .int()
            .positive()
            .max(2 ** 31 - 1),
        }),
        response: { 200: fileResponse('image/png', 'The texture'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const hash = await aiCapeLogTexture(db, request.params.id);
      const bytes = hash ? await library.read(hash) : null;
      if (!bytes) throw new HttpError(404, 'That log has no image.');
      return sendFile(reply.header('cache-control', 'private, max-age=86400'), 'image/png', bytes);
    },
  );

  app.get(
    '/api/admin/reports/user',
    {
      config: adminOnly,
      schema: {
        summary: 'Open player reports, oldest first, with the reported textures as they were',
        response: { 200: z.array(userReportRowSchema), ...errorResponses },
      },
    },
    async () => openUserReports(context),
  );

  app.post(
    '/api/admin/reports/user',
    {
      config: adminOnly,
      schema: {
        summary: 'Answer a player report: IGNORE, REMOVE (with a reason) or BAN (with a reason)',
        body: reportActionBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { id, action, reason } = request.body;
      if (action === 'WHITELIST')
        throw new HttpError(422, 'Only gallery reports can be whitelisted.', { action: ['Only gallery reports can be whitelisted.'] });
      if (action !== 'IGNORE' && !(reason && isBanReason(reason))) throw new HttpError(422, 'Choose a reason.', { reason: ['Choose a reason.'] });
      refuse(await answerUserReport(context, moderator, { id, action, reasonKey: action === 'IGNORE' ? null : reason! }));
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/reports/gallery',
    {
      config: adminOnly,
      schema: {
        summary: 'Reports of gallery textures, oldest first',
        querystring: pageQuerySchema,
        response: { 200: paginatedSchema(galleryReportRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { rows, total } = await galleryReportPage(context, request.query.page, ADMIN_PAGE_SIZE);
      return paginate(rows, request.query.page, ADMIN_PAGE_SIZE, total, '/api/admin/reports/gallery');
    },
  );

  app.post(
    '/api/admin/reports/gallery',
    {
      config: adminOnly,
      schema: {
        summary: 'Answer a gallery report: IGNORE, REMOVE (with a reason), BAN the author (with a reason) or WHITELIST',
        body: reportActionBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { id, action, reason } = request.body;
      const needsReason = action === 'REMOVE' || action === 'BAN';
      if (needsReason && !(reason && isBanReason(reason))) throw new HttpError(422, 'Choose a reason.', { reason: ['Choose a reason.'] });
      refuse(await answerGalleryReport(context, moderator, { id, action, reasonKey: needsReason ? reason! : null }));
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/audit',
    {
      config: adminOnly,
      schema: {
        summary: 'The audit log of admin actions, newest first; `admin` and `player` (a name or a uuid) narrow it',
        querystring: auditQuerySchema,
        response: { 200: paginatedSchema(auditRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { page, admin, player } = request.query;
      const { rows, total } = await auditPage(db, { admin, player }, page, ADMIN_PAGE_SIZE);
      const filters = new URLSearchParams({ ...(admin ? { admin } : {}), ...(player ? { player } : {}) }).toString();
      const result = paginate(rows, page, ADMIN_PAGE_SIZE, total, '/api/admin/audit');
      // The pager's links keep the filters.
      return filters ? { ...result, links: result.links.map((link) => ({ ...link, url: link.url && `${link.url}&${filters}` })) } : result;
    },
  );
}
