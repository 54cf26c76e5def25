import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../support/app-process.ts';

/** The first port the kernel hands to outgoing connections. */
function ephemeralRangeStart(): number {
  return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
}

describe('freePort', () => {
  it('hands out ports below the kernel’s ephemeral range, never the same one twice, each one a server can listen on', async () => {
    const limit = ephemeralRangeStart();
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) expect(port).toBeLessThan(limit);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    expect((server.address() as net.AddressInfo).port).toBe(ports[0]);
    await new Promise((resolve) => server.close(resolve));
  });
});
