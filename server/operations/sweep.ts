// The leftover sweep: removes what a server killed mid-upload leaves behind (partial writes, textures nothing refers
// to, blobs no texture owns), once it is older than a grace period, so an upload still in flight is never touched;
// payment notifications older than their retention period; the mod API's change log past what it keeps; and expired
// app sign-in codes, app tokens and the app connections that lapsed with them.
import { forgetExpiredTokens } from '../auth/app-grants.ts';
import { forgetExpiredDeviceRequests } from '../auth/device-requests.ts';
import type { Db } from '../db/database.ts';
import { pruneChanges } from '../events/change-log.ts';
import { removeOldNotifications } from '../premium/payments.ts';
import { forgetOldMakers } from '../creators/creations.ts';
import { textureBlobKeys, type TextureLibrary } from '../textures/library/texture-library.ts';

/** What one sweep removed. */
export interface SweepReport {
  /** Temporary files of writes cut short, as store-relative names. */
  partialWrites: string[];
  /** Hashes of `textures` rows nothing referred to (removed with their blobs). */
  textures: string[];
  /** Keys of blobs no `textures` row owned. */
  blobs: string[];
  /** How many stored payment notifications had passed their retention period. */
  notifications: number;
  /** How many mod API changes had passed what the change log keeps. */
  changes: number;
  /** How many app sign-in codes had expired. */
  signInCodes: number;
  /** How many app connections lapsed (their refresh token expired unused). */
  lapsedConnections: number;
}

/**
 * How old a leftover must be, how long payment notifications are kept (none removed when unset), and a clock and a stop
 * signal for tests and shutdown.
 */
export interface SweepOptions {
  graceMs: number;
  notificationRetentionMs?: number;
  now?: number;
  signal?: AbortSignal;
}

/**
 * Removes partial writes, unreferenced textures and unowned blobs written more than `graceMs` ago, who made creations
 * that long ago, and payment notifications received more than `notificationRetentionMs` ago.
 */
export async function sweepLeftovers(db: Db, library: TextureLibrary, options: SweepOptions): Promise<SweepReport> {
  const now = options.now ?? Date.now();
  const before = now - options.graceMs;
  const notifications =
    options.notificationRetentionMs === undefined
      ? 0
      : await removeOldNotifications(db, now - options.notificationRetentionMs);
  const partialWrites = await library.store.removePartialWrites(before);
  await forgetOldMakers(db, before);

  const textures: string[] = [];
  const oldRows = await db
    .selectFrom('textures')
    .select('hash')
    .where('created_at', '<', before)
    .orderBy('hash')
    .execute();
  for (const { hash } of oldRows) {
    options.signal?.throwIfAborted();
    textures.push(...(await library.release([hash])));
  }

  // A texture stored after this read had its blob written just before its row, so that blob is younger than the grace
  // period.
  const owned = new Set(
    (await db.selectFrom('textures').select('hash').execute()).flatMap(({ hash }) => textureBlobKeys(hash)),
  );
  const blobs: string[] = [];
  for await (const blob of library.store.list()) {
    options.signal?.throwIfAborted();
    if (blob.modifiedAt >= before || owned.has(blob.key)) continue;
    await library.store.delete(blob.key);
    blobs.push(blob.key);
  }
  const changes = await pruneChanges(db, now);
  const signInCodes = await forgetExpiredDeviceRequests(db, now);
  const lapsedConnections = await forgetExpiredTokens(db, now);
  return { partialWrites, textures, blobs, notifications, changes, signInCodes, lapsedConnections };
}

/** One line per removed thing, for the CLI and the server log. */
export function describeSweep(report: SweepReport): string[] {
  return [
    ...report.partialWrites.map((name) => `partial write ${name}`),
    ...report.textures.map((hash) => `unreferenced texture ${hash}`),
    ...report.blobs.map((key) => `unowned blob ${key}`),
    ...(report.notifications > 0
      ? [`${report.notifications} payment notification(s) past their retention period`]
      : []),
    ...(report.changes > 0 ? [`${report.changes} mod API change(s) past what the change log keeps`] : []),
    ...(report.signInCodes > 0 ? [`${report.signInCodes} expired app sign-in code(s)`] : []),
    ...(report.lapsedConnections > 0 ? [`${report.lapsedConnections} app connection(s) whose tokens expired`] : []),
  ];
}
