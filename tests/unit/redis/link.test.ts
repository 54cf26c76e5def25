// Unit tests for the Redis link: one warning per outage (not one per reconnect attempt or per command), and a note when
// Redis is back; counters fall back to the process while it is down.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis, type RedisLink } from '../../../server/redis/link.ts';
import { sharedWindowCounter } from '../../../server/redis/window-counter.ts';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts';
import { waitFor } from '../../../support/wait.ts';

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const record = (level: string) => (first: unknown, second?: unknown) =>
    lines.push({ level, message: String(typeof first === 'string' ? first : second) });
  return {
    lines,
    log: { warn: record('warn'), info: record('info'), error: record('error') } as unknown as FastifyBaseLogger,
  };
}

describe('the Redis link', () => {
  let proxy: TcpProxy | undefined;
  let link: RedisLink | undefined;
  afterEach(async () => {
    link?.close();
    await proxy?.stop();
  });

  it('warns once per outage and counts in the process meanwhile', async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    const { lines, log } = recordingLogger();
    link = connectRedis(`redis://127.0.0.1:${proxy.port}`, log);
    const counter = sharedWindowCounter(link, `cloakroom-test-${randomBytes(6).toString('hex')}:`);
    await waitFor(() => link!.ready(), 'the first connection');
    expect((await counter.increment('k', 60_000)).current).toBe(1);
    expect((await counter.increment('k', 60_000)).current).toBe(2);

    await proxy.stop();
    await waitFor(() => !link!.ready(), 'the outage');
    // While down: the count starts over in the process, and every command and reconnect attempt stays quiet.
    expect((await counter.increment('k', 60_000)).current).toBe(1);
    expect((await counter.increment('k', 60_000)).current).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);

    await proxy.start();
    await waitFor(() => link!.ready(), 'the reconnection');
    expect((await counter.increment('k', 60_000)).current, 'the Redis count again').toBe(3);
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info']);

    await proxy.stop();
    await waitFor(() => !link!.ready(), 'the second outage');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info', 'warn']);
  });
});
