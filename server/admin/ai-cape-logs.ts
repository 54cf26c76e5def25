// The AI cape creator's log for moderators: each request's time, the start of its prompt, who
// asked, and the texture it made. A logged texture stays stored while its log row exists.
import type { Db } from '../db/database.ts';
import { rowsPage } from '../db/rows-page.ts';
import type { ReferenceCounter } from '../textures/library/texture-library.ts';

/** How much of a prompt the log list shows (a prompt is at most 50 characters). */
export const REQUEST_HEAD_LENGTH = 50;

/** A log row as the AI log page shows it. */
export interface AiCapeLogEntry {
  id: number;
  created_at: number;
  request_head: string;
  username: string | null;
  hasImage: boolean;
}

/** One page of the log, newest first, and how many rows there are. */
export async function aiCapeLogPage(
  db: Db,
  page: number,
  perPage: number,
): Promise<{ logs: AiCapeLogEntry[]; total: number }> {
  const { rows, total } = await rowsPage(
    db.selectFrom('ai_cape_logs'),
    (logs) =>
      logs
        .leftJoin('users', 'users.uuid', 'ai_cape_logs.user_uuid')
        .select([
          'ai_cape_logs.id',
          'ai_cape_logs.created_at',
          'ai_cape_logs.prompt',
          'ai_cape_logs.texture_hash',
          'users.username',
        ])
        .orderBy('ai_cape_logs.id', 'desc'),
    page,
    perPage,
  );
  const logs = rows.map((row) => ({
    id: row.id,
    created_at: Number(row.created_at),
    request_head: row.prompt.slice(0, REQUEST_HEAD_LENGTH),
    username: row.username,
    hasImage: row.texture_hash !== null,
  }));
  return { logs, total };
}

/** The texture a log row made, or null (no such row, or no image). */
export async function aiCapeLogTexture(db: Db, id: number): Promise<string | null> {
  const row = await db.selectFrom('ai_cape_logs').select('texture_hash').where('id', '=', id).executeTakeFirst();
  return row?.texture_hash ?? null;
}

/** Counts the log rows that keep a texture. */
export const countAiLogReferences: ReferenceCounter = async (db, hash) => {
  const row = await db
    .selectFrom('ai_cape_logs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('texture_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return Number(row.count);
};
