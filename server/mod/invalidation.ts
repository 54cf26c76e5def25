// Change notices for cached profiles: in-process by default, across processes through Redis pub/sub when REDIS_URL is set.
import { Redis } from 'ioredis';

const CHANNEL = 'cloakroom:profile-changed';

/** Tells every process that a player's profile changed. */
export interface InvalidationBus {
  /** Announces a change; the local handler runs at once, other processes hear it through Redis. */
  publish(uuid: string): Promise<void>;
  close(): Promise<void>;
}

/** Creates the bus; `onChange` runs for every change notice, local or remote. */
export async function createInvalidationBus(redisUrl: string | undefined, onChange: (uuid: string) => void): Promise<InvalidationBus> {
  if (!redisUrl) {
    return { publish: async (uuid) => onChange(uuid), close: async () => undefined };
  }
  const publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(redisUrl, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  subscriber.on('message', (channel, message) => {
    if (channel === CHANNEL) onChange(message);
  });
  await subscriber.subscribe(CHANNEL);
  return {
    async publish(uuid) {
      onChange(uuid);
      await publisher.publish(CHANNEL, uuid);
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
