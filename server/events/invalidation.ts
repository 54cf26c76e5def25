// Change notices for cached profiles: in-process by default, across processes through Redis pub/sub when REDIS_URL is set.
// A change notice never fails the request that made the change: while Redis is down, notices reach this process only.
import type { Redis } from 'ioredis';
import type { RedisLink } from '../redis/link.ts';

/** Tells every process that a player's profile changed. */
export interface InvalidationBus {
  /** Announces a change; the local handler runs at once, other processes hear it through Redis when it is reachable. */
  publish(uuid: string): Promise<void>;
  close(): Promise<void>;
}

/** Creates the bus on `channel`; `onChange` runs for every change notice, local or remote. Without a link, notices stay in this process. */
export function createInvalidationBus(link: RedisLink | undefined, channel: string, onChange: (uuid: string) => void): InvalidationBus {
  if (!link) {
    return { publish: async (uuid) => onChange(uuid), close: async () => undefined };
  }
  // The subscriber connects (and subscribes again after every reconnect) in the background.
  const subscriber: Redis = link.duplicate();
  subscriber.on('message', (from, message) => {
    if (from === channel) onChange(message);
  });
  subscriber.subscribe(channel).catch((error: unknown) => link.failed(error));
  return {
    async publish(uuid) {
      onChange(uuid);
      if (!link.ready()) return;
      try {
        await link.client.publish(channel, uuid);
      } catch (error) {
        link.failed(error);
      }
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
