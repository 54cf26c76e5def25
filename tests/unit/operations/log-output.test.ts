// The log's output (server/operations/log-output.ts): a reader that falls behind is owed a bounded backlog, lines that
// cannot be written are dropped and counted, and draining gives up at its deadline.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogOutput } from '../../../server/operations/log-output.ts';

const LINE = `${JSON.stringify({ level: 30, msg: 'request completed', padding: 'x'.repeat(180) })}\n`;

/** A stream whose reader takes the first write and then never finishes it: everything after waits. */
function stalledStream(): Writable {
  return new Writable({ write: () => {} });
}

describe('LogOutput', () => {
  it('holds at most its backlog for a reader that stopped reading, and counts every line beyond it', () => {
    const stream = stalledStream();
    const output = new LogOutput(stream, 16 * 1024);
    for (let line = 0; line < 1000; line++) output.write(LINE);
    expect(stream.writableLength).toBeLessThanOrEqual(16 * 1024);
    const kept = Math.floor((16 * 1024) / LINE.length);
    expect(output.droppedLines).toBe(1000 - kept);
  });

  it('drops and counts the lines queued when the reader goes away, and every line after', async () => {
    let fail: ((error: Error) => void) | undefined;
    const stream = new Writable({ write: (_chunk, _encoding, done) => (fail = done) });
    const output = new LogOutput(stream, 16 * 1024);
    for (let line = 0; line < 10; line++) output.write(LINE);
    fail!(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.droppedLines).toBe(10);
    output.write(LINE);
    expect(output.droppedLines).toBe(11);
    expect(await output.drain(5000)).toBe(false);
  });

  it('stops waiting for a stalled reader at the drain deadline', async () => {
    const output = new LogOutput(stalledStream(), 16 * 1024);
    output.write(LINE);
    const startedAt = Date.now();
    expect(await output.drain(200)).toBe(false);
    expect(Date.now() - startedAt).toBeLessThan(400);
  });

  it('drains at once when the reader keeps up', async () => {
    const written: string[] = [];
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        written.push(chunk.toString());
        setTimeout(done, 5);
      },
    });
    const output = new LogOutput(stream, 16 * 1024);
    for (let line = 0; line < 5; line++) output.write(LINE);
    expect(await output.drain(5000)).toBe(true);
    expect(written).toHaveLength(5);
    expect(output.droppedLines).toBe(0);
  });
});
