// Request log lines (server/http/request-log.ts): the site's requests are logged in full; the mod API's hot paths only
// when they fail or are slow, and then with the request's path.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLog } from '../../../server/http/request-log.ts';
import { isModApiPath } from '../../../server/routes/mod.ts';

const SLOW_MS = 100;

describe('RequestLog', () => {
  const lines: Array<{ level: number; msg: string; req?: { url: string }; res?: { statusCode: number } }> = [];
  const app = Fastify({
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      }),
    },
    logController: new RequestLog(isModApiPath, SLOW_MS),
  });

  beforeAll(async () => {
    app.get('/profile/:id', async (request) => {
      const { id } = request.params as { id: string };
      if (id === 'broken') throw new Error('database down');
      if (id === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 20));
      return { id };
    });
    app.get('/textures/:hash', async (_request, reply) => reply.status(404).send({ error: 'Not found' }));
    app.get('/api/home', async () => ({ ok: true }));
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  /** The log lines written while `url` was asked for. */
  async function linesFor(url: string) {
    lines.length = 0;
    await app.inject({ method: 'GET', url });
    return [...lines];
  }

  it('logs a site request coming in and completed', async () => {
    const logged = await linesFor('/api/home');
    expect(logged.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('logs nothing for a quick mod API answer, found or not', async () => {
    expect(await linesFor('/profile/somebody')).toEqual([]);
    expect(await linesFor('/textures/unknown')).toEqual([]);
  });

  it('logs a failed mod API request at error level, with its path', async () => {
    const completed = (await linesFor('/profile/broken')).filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ level: 50, req: { url: '/profile/broken' }, res: { statusCode: 500 } });
  });

  it('logs a slow mod API request at warn level, with its path', async () => {
    const logged = await linesFor('/profile/slow');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 40,
      msg: 'slow request completed',
      req: { url: '/profile/slow' },
      res: { statusCode: 200 },
    });
  });
});
