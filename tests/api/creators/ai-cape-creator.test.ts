// API tests for the AI cape creator: the built-in pattern generator and an OpenAI-compatible images API (a local
// stand-in), the prompt rules, the cache, the per-hour limit, the service's failures and the moderators' log.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { aiImageMessages } from '../../../server/integrations/ai-images.ts';
import { pixelAt, rgbaPixels } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { openAiImageFailures, startOpenAiImagesStandIn } from '../../helpers/openai-images.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

const AI_KEY = 'sk-test-ai';
const images = await startOpenAiImagesStandIn({ apiKey: AI_KEY });
afterAll(() => images.close());

/** Expects a pixel within 3 of a colour in each channel (the image is resampled onto the cape). */
function expectNear(actual: number[], expected: number[]): void {
  expect(
    actual.every((value, channel) => Math.abs(value - expected[channel]!) <= 3),
    `${actual.join()} near ${expected.join()}`,
  ).toBe(true);
}

/** Posts a prompt and reads the answer as JSON. */
async function ask(
  jar: CookieJar,
  prompt: string,
): Promise<{ status: number; body: Record<string, unknown>; cache: string | null }> {
  const response = await jar.post('/api/gallery/ai-cape-creator', { prompt });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    cache: response.headers.get('x-creation-cache'),
  };
}

describe.each(backends)('AI cape creator on $name', (backend) => {
  describe('with the built-in pattern generator', () => {
    const suite = serverForSuite(backend);
    let jar: CookieJar;
    beforeAll(async () => ({ jar } = await loginNewUser(suite.server)));

    it('names the built-in generator', async () => {
      expect(await (await jar.get('/api/gallery/ai-cape-creator')).json()).toEqual({
        name: 'Built-in pattern generator',
        builtIn: true,
      });
    });

    it('makes a 256 x 128 cape from a prompt, answers the same prompt from the cache, and logs both requests', async () => {
      const first = await ask(jar, 'red and white stripes');
      expect(first.status).toBe(200);
      expect(first.cache).toBe('miss');
      expect(first.body).toMatchObject({ width: 256, height: 128, frames: 1 });
      const png = await jar.post(
        '/api/gallery/ai-cape-creator',
        { prompt: 'red and white stripes' },
        { accept: 'image/png' },
      );
      expect(png.headers.get('x-creation-cache')).toBe('hit');
      const cape = await rgbaPixels(Buffer.from(await png.arrayBuffer()));
      expect([cape.width, cape.height]).toEqual([256, 128]);
      // Down the front (4, 4)-(44, 68): red stripes and white ones.
      const column = Array.from({ length: 64 }, (_, row) => pixelAt(cape, 24, 4 + row));
      expect(column.some(([r, g, b]) => r! > 150 && g! < 90 && b! < 90)).toBe(true);
      expect(column.some(([r, g, b]) => r! > 200 && g! > 200 && b! > 200)).toBe(true);
      const rows = await suite.server.db
        .selectFrom('ai_cape_logs')
        .selectAll()
        .where('prompt', '=', 'red and white stripes')
        .execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.texture_hash === first.body.hash)).toBe(true);
    });

    it('refuses an empty prompt and one over 50 characters', async () => {
      expect(await ask(jar, '   ')).toMatchObject({ status: 422, body: { message: creatorMessages.promptEmpty } });
      expect(await ask(jar, 'x'.repeat(51))).toMatchObject({
        status: 422,
        body: { message: creatorMessages.promptTooLong },
      });
      expect((await ask(jar, 'x'.repeat(50))).status).toBe(200);
    });

    it("shows in the moderators' AI log with its image", async () => {
      await ask(jar, 'gold star on navy');
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const log = (await (await admin.jar.get('/api/admin/ai-cape-logs')).json()) as {
        logs: Array<{ id: number; request_head: string }>;
      };
      const entry = log.logs.find((row) => row.request_head === 'gold star on navy');
      expect(entry).toBeDefined();
      const image = await admin.jar.get(`/api/admin/ai-cape-logs/${entry!.id}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    });
  });

  describe('with an images API', () => {
    const suite = serverForSuite(backend, {
      AI_API_URL: images.url,
      AI_API_KEY: AI_KEY,
      AI_MODEL: 'dall-e-3',
      AI_PROMPTS_PER_HOUR: '4',
    });
    let jar: CookieJar;
    beforeAll(async () => {
      ({ jar } = await loginNewUser(suite.server));
      images.setBehaviour({ kind: 'image' });
      images.setImage({ width: 1024, height: 1024, background: '#1e64c8', square: '#f0c814' });
    });

    it("sends the prompt to the images API and fits its image onto the cape; a refusal is 502 with the service's message, logged without an image; past the hourly limit, 429", async () => {
      images.requests.length = 0;
      const made = await ask(jar, 'a blue banner with a gold square');
      expect(made.status).toBe(200);
      expect(images.requests).toHaveLength(1);
      expect(JSON.stringify(images.requests[0])).toContain('a blue banner with a gold square');
      const cape = await rgbaPixels(
        Buffer.from(
          await (await fetch(new URL(new URL(made.body.cape as string).pathname, suite.server.url))).arrayBuffer(),
        ),
      );
      // The front (4, 4)-(44, 68): blue at its edge, the gold square in its middle.
      expectNear(pixelAt(cape, 5, 36), [0x1e, 0x64, 0xc8, 255]);
      expectNear(pixelAt(cape, 24, 36), [0xf0, 0xc8, 0x14, 255]);

      images.setBehaviour(openAiImageFailures.contentPolicy);
      const refused = await ask(jar, 'something not allowed');
      expect(refused).toMatchObject({ status: 502, body: { error: aiImageMessages.refused } });
      const row = await suite.server.db
        .selectFrom('ai_cape_logs')
        .selectAll()
        .where('prompt', '=', 'something not allowed')
        .executeTakeFirstOrThrow();
      expect(row.texture_hash).toBeNull();

      images.setBehaviour({ kind: 'image' });
      expect((await ask(jar, 'third prompt')).status).toBe(200);
      expect((await ask(jar, 'fourth prompt')).status).toBe(200);
      expect(await ask(jar, 'fifth prompt')).toMatchObject({
        status: 429,
        body: { error: creatorMessages.tooManyPrompts },
      });
    });
  });

  describe('with an images API that answers with an image URL', () => {
    const suite = serverForSuite(backend, {
      AI_API_URL: images.url,
      AI_API_KEY: AI_KEY,
      AI_MODEL: 'dall-e-3',
      AI_PROMPTS_PER_HOUR: '100',
    });
    let jar: CookieJar;
    let elsewhere: http.Server;
    const fetched: string[] = [];
    beforeAll(async () => {
      ({ jar } = await loginNewUser(suite.server));
      // Another web server on this machine, which an answer may try to make the server fetch.
      elsewhere = http.createServer((request, response) => {
        fetched.push(request.url ?? '');
        response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      images.setBehaviour({ kind: 'image' });
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    });

    it('refuses an image URL on a loopback address or on another host with a clear error, and fetches nothing from it', async () => {
      images.downloads.length = 0;
      // The API's own host, but a loopback address (allowed only with OUTSIDE_URLS_ALLOW_PRIVATE).
      images.setBehaviour({ kind: 'url' });
      expect(await ask(jar, 'a url on loopback')).toMatchObject({
        status: 502,
        body: { error: aiImageMessages.failed },
      });
      expect(images.downloads).toHaveLength(0);
      // Another host.
      const port = (elsewhere.address() as AddressInfo).port;
      for (const address of [
        `http://localhost:${port}/image.png`,
        `http://127.0.0.2:${port}/image.png`,
        'http://169.254.169.254/latest/meta-data/',
      ]) {
        images.setBehaviour({ kind: 'url', address });
        expect(await ask(jar, `another host ${fetched.length}`), address).toMatchObject({
          status: 502,
          body: { error: aiImageMessages.failed },
        });
      }
      expect(fetched).toEqual([]);
      const rows = await suite.server.db.selectFrom('ai_cape_logs').select('texture_hash').execute();
      expect(rows.map((row) => row.texture_hash)).toEqual([null, null, null, null]);
    });
  });
});
