// Change notices for the mod API's answers: a player's (by uuid) or a texture's (by hash). Each change is logged in the
// database first (server/events/change-log.ts), then handled in this process, then announced to every other process
// through Redis pub/sub when REDIS_URL is set. A change notice never fails the request that made the change: while
// Redis is down, notices reach this process only, and the others catch up from the change log.
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import type { RedisLink } from '../redis/link.ts';
import { recordChange, type ChangeLogOptions } from './change-log.ts';

/** What a notice says: the change's number in the log and what changed (a player's uuid or a texture's hash). */
export interface ChangeNotice {
  seq: number;
  subject: string;
}

/** Tells every process that a player's or a texture's answers changed. */
export interface InvalidationBus {
  /**
   * Logs a change, handles it in this process (resolves once handled) and announces it to the others when Redis is
   * reachable.
   */
  publish(subject: string): Promise<void>;
  close(): Promise<void>;
}

/** A notice as it travels through Redis: `{seq} {subject}`; null for anything else. */
export function parseNotice(message: string): ChangeNotice | null {
  const match = /^(\d+) ([0-9a-f]{32}|[0-9a-f]{64})$/.exec(message);
  return match ? { seq: Number(match[1]), subject: match[2]! } : null;
}

/**
 * Creates the bus on `channel`; `onChange` runs for every notice, local or remote (a remote one's failure goes to
 * `onError`). Without a link, notices stay in this process.
 */
export function createInvalidationBus(
  db: Db,
  link: RedisLink | undefined,
  channel: string,
  onChange: (notice: ChangeNotice) => Promise<void>,
  onError: (error: unknown) => void,
  changeLog: ChangeLogOptions,
): InvalidationBus {
  let subscriber: Redis | undefined;
  if (link) {
    // The subscriber connects (and subscribes again after every reconnect) in the background.
    subscriber = link.duplicate();
    subscriber.on('message', (from, message) => {
      const notice = from === channel ? parseNotice(message) : null;
      if (notice) onChange(notice).catch(onError);
    });
    subscriber.subscribe(channel).catch((error: unknown) => link.failed(error));
  }
  return {
    async publish(subject) {
      const notice = { seq: await recordChange(db, subject, changeLog), subject };
      await onChange(notice);
      if (!link?.ready()) return;
      try {
        await link.client.publish(channel, `${notice.seq} ${notice.subject}`);
      } catch (error) {
        link.failed(error);
      }
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
