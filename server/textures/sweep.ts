// The leftover sweep: removes what a server killed mid-upload leaves behind (partial writes, textures nothing refers to,
// blobs no texture owns), once it is older than a grace period, so an upload still in flight is never touched.
import type { Db } from '../db/database.ts';
import { forgetOldMakers } from './creations.ts';
import { textureBlobKeys, type TextureLibrary } from './library.ts';

/** What one sweep removed. */
export interface SweepReport {
  /** Temporary files of writes cut short, as store-relative names. */
  partialWrites: string[];
  /** Hashes of `textures` rows nothing referred to (removed with their blobs). */
  textures: string[];
  /** Keys of blobs no `textures` row owned. */
  blobs: string[];
}

/** How old a leftover must be, and a clock and a stop signal for tests and shutdown. */
export interface SweepOptions {
  graceMs: number;
  now?: number;
  signal?: AbortSignal;
}

/** Removes partial writes, unreferenced textures and unowned blobs written more than `graceMs` ago, and who made creations that long ago. */
export async function sweepLeftovers(db: Db, library: TextureLibrary, options: SweepOptions): Promise<SweepReport> {
  const before = (options.now ?? Date.now()) - options.graceMs;
  const partialWrites = await library.store.removePartialWrites(before);
  await forgetOldMakers(db, before);

  const textures: string[] = [];
  const oldRows = await db.selectFrom('textures').select('hash').where('created_at', '<', before).orderBy('hash').execute();
  for (const { hash } of oldRows) {
    options.signal?.throwIfAborted();
    textures.push(...(await library.release([hash])));
  }

  // A texture stored after this read had its blob written just before its row, so that blob is younger than the grace period.
  const owned = new Set((await db.selectFrom('textures').select('hash').execute()).flatMap(({ hash }) => textureBlobKeys(hash)));
  const blobs: string[] = [];
  for await (const blob of library.store.list()) {
    options.signal?.throwIfAborted();
    if (blob.modifiedAt >= before || owned.has(blob.key)) continue;
    await library.store.delete(blob.key);
    blobs.push(blob.key);
  }
  return { partialWrites, textures, blobs };
}

/** One line per removed thing, for the CLI and the server log. */
export function describeSweep(report: SweepReport): string[] {
  return [
    ...report.partialWrites.map((name) => `partial write ${name}`),
    ...report.textures.map((hash) => `unreferenced texture ${hash}`),
    ...report.blobs.map((key) => `unowned blob ${key}`),
  ];
}
