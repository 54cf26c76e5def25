// The connections players made with apps (grants) and their tokens. Tokens are opaque and kept only as hashes; an
// access token lives OAUTH_ACCESS_TOKEN_SECONDS; a refresh token is exchanged once for new tokens (it rotates), and one
// sent a second time ends its connection, since someone else holds a copy. Every end of a connection (by the player,
// the app, a ban, an account deletion, a refresh token sent twice) is audited.
import type { Transaction } from 'kysely';
import { parseAppScopes, type AppScope } from '../../src/lib/app-scopes.ts';
import { appActor, SIGN_IN_SERVICE } from '../audit/actors.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import type { DeviceFlowConfig } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { AppClient } from './app-clients.ts';
import { OAuthError } from './oauth-errors.ts';
import { hashSecret, newSecret } from './secrets.ts';

/** The lifetimes tokens are issued with. */
export type TokenLifetimes = Pick<DeviceFlowConfig, 'accessTokenSeconds' | 'refreshTokenMs'>;

/** The token endpoint's answer (RFC 6749 section 5.1). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** What an access token lets its app do: for which player, with which scopes, under which connection. */
export interface AppAccess {
  grantId: number;
  userUuid: string;
  scopes: AppScope[];
}

/** A connection as the player's connected apps list shows it. */
export interface ConnectedApp {
  id: number;
  clientId: string;
  name: string;
  scopes: AppScope[];
  connectedAt: number;
  lastUsedAt: number;
}

/** A player as the audit log names them. */
type Player = { uuid: string; username: string };

/** How stale a connection's "last used" may be before a use writes it again (a write per minute at most). */
const LAST_USED_STEP_MS = 60_000;

/** The refusal of a refresh token that is wrong, expired, used or of an ended connection. */
const REFRESH_TOKEN_REFUSED = 'The refresh token is wrong, expired or revoked: sign in again.';

/** A token of a kind with its connection, found by the token as the app holds it. */
function tokenWithConnection(db: Db, token: string, kind: 'access' | 'refresh') {
  return db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .select(['oauth_tokens.scope as token_scope', 'oauth_tokens.expires_at', 'oauth_tokens.used_at'])
    .select(['oauth_grants.id', 'oauth_grants.client_id', 'oauth_grants.user_uuid', 'oauth_grants.scope'])
    .select('oauth_grants.last_used_at')
    .where('oauth_tokens.token_hash', '=', hashSecret(token))
    .where('oauth_tokens.kind', '=', kind)
    .executeTakeFirst();
}

/** Writes a new access token and refresh token for a connection; the answer the token endpoint sends. */
async function issueTokens(
  trx: Transaction<Database>,
  grant: { id: number; scope: string },
  accessScope: string,
  lifetimes: TokenLifetimes,
  now: number,
): Promise<TokenAnswer> {
  const access = newSecret();
  const refresh = newSecret();
  const row = { grant_id: grant.id, created_at: now, used_at: null };
  await trx
    .insertInto('oauth_tokens')
    .values([
      {
        ...row,
        token_hash: hashSecret(access),
        kind: 'access',
        scope: accessScope,
        expires_at: now + lifetimes.accessTokenSeconds * 1000,
      },
      {
        ...row,
        token_hash: hashSecret(refresh),
        kind: 'refresh',
        scope: grant.scope,
        expires_at: now + lifetimes.refreshTokenMs,
      },
    ])
    .execute();
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: lifetimes.accessTokenSeconds,
    refresh_token: refresh,
    scope: accessScope,
  };
}

/** Connects an app to a player with the scopes they approved, inside `trx`; answers its first tokens. */
export async function connectApp(
  trx: Transaction<Database>,
  connection: { clientId: string; userUuid: string; scope: string },
  lifetimes: TokenLifetimes,
  now: number,
): Promise<TokenAnswer> {
  const grant = await trx
    .insertInto('oauth_grants')
    .values({
      client_id: connection.clientId,
      user_uuid: connection.userUuid,
      scope: connection.scope,
      created_at: now,
      last_used_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return issueTokens(trx, { id: grant.id, scope: connection.scope }, connection.scope, lifetimes, now);
}

/** Ends connections (their tokens go with them) and writes an audit row for each, saying what ended it. */
async function endConnections(
  trx: Transaction<Database>,
  connections: Array<{ id: number; name: string; player: Player }>,
  by: Moderator,
  cause: string,
  now: number,
): Promise<void> {
  if (connections.length === 0) return;
  await trx
    .deleteFrom('oauth_grants')
    .where(
      'id',
      'in',
      connections.map((connection) => connection.id),
    )
    .execute();
  for (const connection of connections) {
    const detail = `${connection.name}: ${cause}`;
    await recordAdminAction(trx, by, { action: 'APP_REVOKE', target: connection.player, detail }, now);
  }
}

/** The connections to end, read with their app's name and their player. */
function connectionsQuery(trx: Transaction<Database>) {
  return trx
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .innerJoin('users', 'users.uuid', 'oauth_grants.user_uuid')
    .select(['oauth_grants.id', 'oauth_clients.name', 'users.uuid', 'users.username']);
}

/** The rows of connectionsQuery as endConnections takes them. */
function asConnections(rows: Array<{ id: number; name: string; uuid: string; username: string }>) {
  return rows.map((row) => ({ id: row.id, name: row.name, player: { uuid: row.uuid, username: row.username } }));
}

/**
 * Exchanges a refresh token for new tokens, optionally with fewer scopes for the access token; a refresh token sent a
 * second time ends its connection. Throws an OAuthError when refused.
 */
export async function refreshAppTokens(
  db: Db,
  client: AppClient,
  refreshToken: string,
  requested: AppScope[] | undefined,
  lifetimes: TokenLifetimes,
  now = Date.now(),
): Promise<TokenAnswer> {
  const outcome = await db.transaction().execute(async (trx) => {
    const token = await tokenWithConnection(trx, refreshToken, 'refresh');
    if (!token || token.expires_at <= now) return new OAuthError('invalid_grant', REFRESH_TOKEN_REFUSED);
    if (token.client_id !== client.clientId)
      return new OAuthError('invalid_grant', 'The refresh token was issued to another app.');
    const granted = parseAppScopes(token.scope) ?? [];
    if (requested && !requested.every((scope) => granted.includes(scope)))
      return new OAuthError('invalid_scope', `The player approved only: ${token.scope}.`);
    const taken = await trx
      .updateTable('oauth_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashSecret(refreshToken))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) {
      const connection = await connectionsQuery(trx).where('oauth_grants.id', '=', token.id).execute();
      await endConnections(trx, asConnections(connection), SIGN_IN_SERVICE, 'a used refresh token came again', now);
      return new OAuthError('invalid_grant', REFRESH_TOKEN_REFUSED);
    }
    await trx.updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', token.id).execute();
    const accessScope = requested ? requested.join(' ') : token.scope;
    return issueTokens(trx, { id: token.id, scope: token.scope }, accessScope, lifetimes, now);
  });
  // A refusal is thrown only once its transaction is committed: ending a connection must stay done.
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/**
 * What an access token lets its app do, or null for a token that is wrong, expired or of an ended connection; notes
 * the use on the connection (to the minute).
 */
export async function appAccessOf(db: Db, accessToken: string, now = Date.now()): Promise<AppAccess | null> {
  const token = await tokenWithConnection(db, accessToken, 'access');
  if (!token || token.expires_at <= now) return null;
  if (now - token.last_used_at >= LAST_USED_STEP_MS)
    await db.updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', token.id).execute();
  return { grantId: token.id, userUuid: token.user_uuid, scopes: parseAppScopes(token.token_scope) ?? [] };
}

/**
 * Ends the connection a token (access or refresh) belongs to, when the app asking holds it (RFC 7009); a token that is
 * unknown or another app's is left alone, and the answer is the same.
 */
export async function revokeAppToken(db: Db, client: AppClient, token: string, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const connection = await connectionsQuery(trx)
      .innerJoin('oauth_tokens', 'oauth_tokens.grant_id', 'oauth_grants.id')
      .where('oauth_tokens.token_hash', '=', hashSecret(token))
      .where('oauth_grants.client_id', '=', client.clientId)
      .execute();
    await endConnections(trx, asConnections(connection), appActor(client), 'signed out by the app', now);
  });
}

/** The apps a player has connected, newest first. */
export async function connectedApps(db: Db, uuid: string): Promise<ConnectedApp[]> {
  const rows = await db
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .select(['oauth_grants.id', 'oauth_grants.client_id', 'oauth_clients.name', 'oauth_grants.scope'])
    .select(['oauth_grants.created_at', 'oauth_grants.last_used_at'])
    .where('oauth_grants.user_uuid', '=', uuid)
    .orderBy('oauth_grants.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    scopes: parseAppScopes(row.scope) ?? [],
    connectedAt: Number(row.created_at),
    lastUsedAt: Number(row.last_used_at),
  }));
}

/** A connection the player ended: its app's name, and how many other connections of that app the player still has. */
export interface EndedConnection {
  appName: string;
  remainingConnections: number;
}

/**
 * Ends one of the player's own connections (audited); the app's name and how many of its connections remain, or null
 * when the player has no such connection.
 */
export async function disconnectApp(
  db: Db,
  player: Player,
  id: number,
  now = Date.now(),
): Promise<EndedConnection | null> {
  return db.transaction().execute(async (trx) => {
    const connection = await connectionsQuery(trx)
      .select('oauth_grants.client_id')
      .where('oauth_grants.id', '=', id)
      .where('oauth_grants.user_uuid', '=', player.uuid)
      .executeTakeFirst();
    if (!connection) return null;
    await endConnections(trx, asConnections([connection]), player, 'revoked by the player', now);
    const remaining = await trx
      .selectFrom('oauth_grants')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_uuid', '=', player.uuid)
      .where('client_id', '=', connection.client_id)
      .executeTakeFirstOrThrow();
    return { appName: connection.name, remainingConnections: Number(remaining.count) };
  });
}

/**
 * Ends every connection of a player and every sign-in they approved that its app has not finished, inside `trx` (a ban,
 * an account deletion), audited as done by `by` for `cause`.
 */
export async function disconnectEveryApp(
  trx: Transaction<Database>,
  uuid: string,
  by: Moderator,
  cause: string,
  now = Date.now(),
): Promise<void> {
  const connections = await connectionsQuery(trx).where('oauth_grants.user_uuid', '=', uuid).execute();
  await endConnections(trx, asConnections(connections), by, cause, now);
  await trx.deleteFrom('oauth_device_requests').where('user_uuid', '=', uuid).execute();
}

/**
 * Removes expired tokens, and the connections left with no token (their refresh token lapsed unused: the app must sign
 * in again); answers how many connections lapsed.
 */
export async function forgetExpiredTokens(db: Db, now = Date.now()): Promise<number> {
  await db.deleteFrom('oauth_tokens').where('expires_at', '<=', now).execute();
  const lapsed = await db
    .deleteFrom('oauth_grants')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauth_tokens').select('token_hash').whereRef('grant_id', '=', 'oauth_grants.id'))),
    )
    .executeTakeFirst();
  return Number(lapsed.numDeletedRows);
}
