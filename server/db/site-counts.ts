// The site's counters kept by triggers (migration 0008): players, players wearing a cape or ears, premium owners.
import type { Db } from './database.ts';

/** The names of the counters in `site_counts`. */
export type SiteCounter = 'users' | 'capes' | 'ears' | 'premium';

/** Reads every counter (0 for one not there). */
export async function readSiteCounts(db: Db): Promise<Record<SiteCounter, number>> {
  const rows = await db.selectFrom('site_counts').select(['key', 'n']).execute();
  const counts: Record<SiteCounter, number> = { users: 0, capes: 0, ears: 0, premium: 0 };
  for (const row of rows) if (row.key in counts) counts[row.key as SiteCounter] = Number(row.n);
  return counts;
}
