// Counters over fixed time windows (rate limits, the login failure budget): in Redis when it is reachable, so every
// process shares them, and in this process otherwise (or while Redis is down).
import type { RedisLink } from './link.ts';

/** A counter's value in its current window, and the milliseconds left in that window. */
export interface WindowCount {
  current: number;
  ttl: number;
}

/** Counts events per key in windows of a given length. */
export interface WindowCounter {
  /** Adds one to a key's count (starting a window when none is running) and returns the count. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** Takes one back (an event that turned out not to count). */
  decrement(key: string): Promise<void>;
}

/** The most keys the in-process counter keeps; the oldest windows go first. */
const LOCAL_MAX_KEYS = 50_000;

/** Counts in this process's memory. */
export function localWindowCounter(): WindowCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async increment(key, windowMs) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        windows.delete(key);
        if (windows.size >= LOCAL_MAX_KEYS) windows.delete(windows.keys().next().value!);
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return { current: window.count, ttl: window.endsAt - now };
    },
    async decrement(key) {
      const window = windows.get(key);
      if (window && window.count > 0) window.count--;
    },
  };
}

// INCR, and start the window's expiry when the key is new; answers the count and the time left.
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

// DECR, but never below zero and never creating a key.
const DECREMENT_SCRIPT = `
if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Counts in Redis under `prefix`, and in this process whenever Redis cannot be reached (a request never fails on it).
 */
export function sharedWindowCounter(link: RedisLink | undefined, prefix: string): WindowCounter {
  const local = localWindowCounter();
  if (!link) return local;
  return {
    async increment(key, windowMs) {
      if (!link.ready()) return local.increment(key, windowMs);
      try {
        const [current, ttl] = (await link.client.eval(INCREMENT_SCRIPT, 1, prefix + key, windowMs)) as [
          number,
          number,
        ];
        return { current, ttl };
      } catch (error) {
        link.failed(error);
        return local.increment(key, windowMs);
      }
    },
    async decrement(key) {
      await local.decrement(key);
      if (!link.ready()) return;
      try {
        await link.client.eval(DECREMENT_SCRIPT, 1, prefix + key);
      } catch (error) {
        link.failed(error);
      }
    },
  };
}

/**
 * A @fastify/rate-limit store on a window counter: the plugin's per-route keys, counted in Redis or in this process.
 */
export function rateLimitStore(counter: WindowCounter) {
  return class WindowCounterStore {
    constructor(
      _options?: unknown,
      readonly routeKey = 'rate-limit:',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: WindowCount) => void, timeWindow: number) {
      counter.increment(`${this.routeKey}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    // The plugin passes the route's merged rate-limit settings, which name the route in `routeInfo`. Routes that name
    // one `groupId` share one count (one budget over several calls); every other route counts on its own.
    child(routeOptions: object) {
      const { groupId, routeInfo } = routeOptions as { groupId?: string; routeInfo: { method: string; url: string } };
      return new WindowCounterStore(
        undefined,
        groupId ? `rate-limit:group:${groupId}:` : `rate-limit:${routeInfo.method}${routeInfo.url}:`,
      );
    }
  };
}
