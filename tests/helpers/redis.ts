// The Redis the multi-process tests share: 127.0.0.1:6379, started as a throwaway redis-server when none answers.
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { waitFor } from '../../support/wait.ts';

/** Where the tests' Redis answers. */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Makes sure Redis answers on 127.0.0.1:6379, starting a throwaway redis-server when it does not. */
export async function ensureRedis(): Promise<void> {
  const ping = async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  };
  if (await ping()) return;
  execFileSync('redis-server', [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await waitFor(ping, 'Redis to start on 127.0.0.1:6379', { intervalMs: 100 });
}
