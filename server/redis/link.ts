// One Redis connection that never stops a request: it reconnects in the background, fails commands at once while down,
// and tells the log once per outage (and once when it is back), so callers can fall back to in-process state.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** A Redis connection and whether it can be used right now. */
export interface RedisLink {
  readonly client: Redis;
  /** Whether commands can be sent now (connected and ready). */
  ready(): boolean;
  /** A second connection to the same server (for subscribing); its outages are reported by this link. */
  duplicate(): Redis;
  /** Notes that a command failed (the outage warning is logged once). */
  failed(error: unknown): void;
  /** Whether Redis answers a PING within `timeoutMs` (false at once while it is unreachable). */
  ping(timeoutMs: number): Promise<boolean>;
  close(): void;
}

/** How long to wait before reconnecting: quickly at first, then every 2 seconds. */
function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 2000);
}

/** Connects to Redis in the background; the server starts (and serves) whether or not Redis is there. */
export function connectRedis(url: string, log: FastifyBaseLogger): RedisLink {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: reconnectDelay,
  };
  const client = new Redis(url, options);
  const others: Redis[] = [];
  let down = false;
  let closing = false;

  const noteDown = (error: unknown) => {
    if (down || closing) return;
    down = true;
    log.warn(
      { err: error },
      'Redis is unreachable: rate limits and profile change notices stay within this process until it is back',
    );
  };
  client.on('error', noteDown);
  client.on('close', () => noteDown(new Error('The Redis connection closed')));
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is reachable again');
  });

  return {
    client,
    ready: () => client.status === 'ready',
    duplicate() {
      // Commands wait for the connection (a subscription made while Redis is down happens once it is up).
      const other = new Redis(url, { connectTimeout: 1000, retryStrategy: reconnectDelay, maxRetriesPerRequest: null });
      other.on('error', () => undefined); // The main connection reports the outage.
      others.push(other);
      return other;
    },
    failed: noteDown,
    async ping(timeoutMs) {
      if (client.status !== 'ready') return false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      try {
        return await Promise.race([client.ping().then((answer) => answer === 'PONG'), late]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closing = true;
      for (const other of others) other.disconnect();
      client.disconnect();
    },
  };
}
