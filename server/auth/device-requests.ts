// Sign-ins under way with the device flow (RFC 8628): an app asks for a device code and a user code; the player enters
// the user code on /device and approves or denies (audited); the app polls with the device code, no faster than its
// interval (each early poll adds 5 seconds to it), and takes its tokens once. Both codes are kept only as hashes and
// live OAUTH_DEVICE_CODE_SECONDS; a used or expired code stays until then, so that the page and the app are told so.
import { randomInt } from 'node:crypto';
import { parseAppScopes, type AppScope } from '../../src/lib/app-scopes.ts';
import { formatUserCode, USER_CODE_ALPHABET, USER_CODE_LENGTH } from '../../src/lib/device-codes.ts';
import { recordAdminAction } from '../audit/record.ts';
import type { DeviceFlowConfig } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import type { AppClient } from './app-clients.ts';
import { connectApp, type TokenAnswer } from './app-grants.ts';
import { OAuthError } from './oauth-errors.ts';
import { hashSecret, newSecret } from './secrets.ts';

/** What an early poll adds to a code's interval, in seconds (RFC 8628 section 3.5). */
export const SLOW_DOWN_SECONDS = 5;

/** What the device authorization endpoint hands the app: its codes, how long they live and how often to poll. */
export interface DeviceRequestStart {
  deviceCode: string;
  /** The user code as the player reads it: XXXX-XXXX. */
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** Why a user code leads nowhere: no such code, it expired, or the player decided already. */
export type DeviceRequestRefusal = 'wrong' | 'expired' | 'used';

/** A sign-in as the /device page shows it. */
export interface DeviceRequestView {
  userCode: string;
  appName: string;
  scopes: AppScope[];
  expiresAt: number;
}

/** A new user code: eight letters of the alphabet. */
function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join(
    '',
  );
}

/** Starts a sign-in for an app with the scopes it asks for; answers its codes. */
export async function startDeviceRequest(
  db: Db,
  client: AppClient,
  scopes: AppScope[],
  settings: Pick<DeviceFlowConfig, 'deviceCodeSeconds' | 'pollIntervalSeconds'>,
  now = Date.now(),
): Promise<DeviceRequestStart> {
  const deviceCode = newSecret();
  for (let attempt = 0; attempt < 20; attempt++) {
    const userCode = newUserCode();
    const inserted = await db
      .insertInto('oauth_device_requests')
      .values({
        device_code_hash: hashSecret(deviceCode),
        user_code_hash: hashSecret(userCode),
        client_id: client.clientId,
        scope: scopes.join(' '),
        created_at: now,
        expires_at: now + settings.deviceCodeSeconds * 1000,
        interval_seconds: settings.pollIntervalSeconds,
        polled_at: null,
        decision: null,
        user_uuid: null,
        taken_at: null,
      })
      .onConflict((oc) => oc.column('user_code_hash').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1)
      return {
        deviceCode,
        userCode: formatUserCode(userCode),
        expiresIn: settings.deviceCodeSeconds,
        interval: settings.pollIntervalSeconds,
      };
  }
  throw new Error('Could not find a free user code');
}

/** The sign-in a user code (normalized) names, read for the /device page, or why there is none to decide. */
function undecidedRequest(db: Db, userCode: string) {
  return db
    .selectFrom('oauth_device_requests')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_device_requests.client_id')
    .select(['oauth_device_requests.device_code_hash', 'oauth_device_requests.scope'])
    .select(['oauth_device_requests.expires_at', 'oauth_device_requests.decision', 'oauth_clients.name'])
    .where('oauth_device_requests.user_code_hash', '=', hashSecret(userCode));
}

/** The view of a sign-in row, or why the player cannot decide it. */
function viewOf(
  row: { scope: string; expires_at: number; decision: string | null; name: string } | undefined,
  userCode: string,
  now: number,
): DeviceRequestView | DeviceRequestRefusal {
  if (!row) return 'wrong';
  if (row.expires_at <= now) return 'expired';
  if (row.decision !== null) return 'used';
  return {
    userCode: formatUserCode(userCode),
    appName: row.name,
    scopes: parseAppScopes(row.scope) ?? [],
    expiresAt: Number(row.expires_at),
  };
}

/** The sign-in a user code (normalized) names, as /device shows it before the player decides, or why not. */
export async function deviceRequestFor(
  db: Db,
  userCode: string,
  now = Date.now(),
): Promise<DeviceRequestView | DeviceRequestRefusal> {
  return viewOf(await undecidedRequest(db, userCode).executeTakeFirst(), userCode, now);
}

/**
 * The player approves or denies the sign-in a user code (normalized) names (audited); answers what they decided on, or
 * why they could not.
 */
export async function decideDeviceRequest(
  db: Db,
  userCode: string,
  player: { uuid: string; username: string },
  decision: 'approved' | 'denied',
  now = Date.now(),
): Promise<DeviceRequestView | DeviceRequestRefusal> {
  return db.transaction().execute(async (trx) => {
    const row = await undecidedRequest(trx, userCode).executeTakeFirst();
    const view = viewOf(row, userCode, now);
    if (typeof view === 'string') return view;
    const decided = await trx
      .updateTable('oauth_device_requests')
      .set({ decision, user_uuid: player.uuid })
      .where('device_code_hash', '=', row!.device_code_hash)
      .where('decision', 'is', null)
      .executeTakeFirst();
    if (Number(decided.numUpdatedRows) !== 1) return 'used';
    await recordAdminAction(
      trx,
      player,
      {
        action: decision === 'approved' ? 'APP_APPROVE' : 'APP_DENY',
        target: player,
        detail: `${view.appName}: ${view.scopes.join(' ')}`,
      },
      now,
    );
    return view;
  });
}

/**
 * An app's poll with its device code: its tokens once the player approved (the code is then used up), else the RFC's
 * refusal (pending, slow down, denied, expired, or a wrong code). Throws an OAuthError when refused.
 */
export async function pollDeviceRequest(
  db: Db,
  client: AppClient,
  deviceCode: string,
  lifetimes: Pick<DeviceFlowConfig, 'accessTokenSeconds' | 'refreshTokenMs'>,
  now = Date.now(),
): Promise<TokenAnswer> {
  const outcome = await db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom('oauth_device_requests')
      .selectAll()
      .where('device_code_hash', '=', hashSecret(deviceCode))
      .executeTakeFirst();
    if (!request || request.client_id !== client.clientId)
      return new OAuthError('invalid_grant', 'The device code is wrong, or was issued to another app.');
    if (request.taken_at !== null)
      return new OAuthError('invalid_grant', 'The device code was exchanged for tokens already.');
    if (request.expires_at <= now)
      return new OAuthError('expired_token', 'The code expired before the player approved it: start signing in again.');
    const thisRequest = 'device_code_hash' as const;
    if (request.polled_at !== null && now - request.polled_at < request.interval_seconds * 1000) {
      const interval = request.interval_seconds + SLOW_DOWN_SECONDS;
      await trx
        .updateTable('oauth_device_requests')
        .set({ polled_at: now, interval_seconds: interval })
        .where(thisRequest, '=', request.device_code_hash)
        .execute();
      return new OAuthError('slow_down', `Polled too soon: wait ${interval} seconds between polls.`);
    }
    await trx
      .updateTable('oauth_device_requests')
      .set({ polled_at: now })
      .where(thisRequest, '=', request.device_code_hash)
      .execute();
    if (request.decision === null)
      return new OAuthError('authorization_pending', 'The player has not approved the sign-in yet.');
    if (request.decision === 'denied') return new OAuthError('access_denied', 'The player denied the sign-in.');
    const taken = await trx
      .updateTable('oauth_device_requests')
      .set({ taken_at: now })
      .where(thisRequest, '=', request.device_code_hash)
      .where('taken_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1)
      return new OAuthError('invalid_grant', 'The device code was exchanged for tokens already.');
    return connectApp(
      trx,
      { clientId: client.clientId, userUuid: request.user_uuid!, scope: request.scope },
      lifetimes,
      now,
    );
  });
  // A refusal is thrown only once its transaction is committed: the poll's time and interval must stay written.
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** Removes the sign-ins whose codes expired; answers how many. */
export async function forgetExpiredDeviceRequests(db: Db, now = Date.now()): Promise<number> {
  const removed = await db.deleteFrom('oauth_device_requests').where('expires_at', '<=', now).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
