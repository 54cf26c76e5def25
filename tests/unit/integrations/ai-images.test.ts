// Unit tests for the AI cape creator's image providers (server/integrations/ai-images.ts) against the images API
// stand-in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AI_IMAGE_MAX_SIDE,
  AiImageError,
  CAPE_STYLE_INSTRUCTION,
  DEFAULT_AI_IMAGE_MODEL,
  OpenAiImagesProvider,
  aiImageMessages,
  createAiImageProvider,
  createPatternProvider,
  type AiImageProvider,
} from '../../../server/integrations/ai-images.ts';
import { PROMPT_PATTERN_HEIGHT, PROMPT_PATTERN_WIDTH } from '../../../server/textures/generators/prompt-pattern.ts';
import type { RawImage } from '../../../server/textures/pipeline/raw-image.ts';
import {
  openAiImageFailures,
  startOpenAiImagesStandIn,
  type OpenAiImagesStandIn,
} from '../../helpers/openai-images.ts';

const API_KEY = 'sk-test-cloakroom';

let standIn: OpenAiImagesStandIn;

beforeAll(async () => {
  standIn = await startOpenAiImagesStandIn({ apiKey: API_KEY });
});
afterAll(() => standIn.close());
afterEach(() => {
  standIn.setBehaviour({ kind: 'image' });
  standIn.setImage({ width: 1024, height: 1024, background: '#1e64c8', square: '#f0c814' });
  standIn.requests.length = 0;
  standIn.downloads.length = 0;
});

/** A provider for the stand-in (on 127.0.0.1, so its image URLs need private addresses allowed). */
function provider(
  options: {
    model?: string;
    timeoutMs?: number;
    apiKey?: string;
    baseUrl?: string;
    imageHosts?: string[];
    allowPrivateAddresses?: boolean;
  } = {},
): OpenAiImagesProvider {
  return new OpenAiImagesProvider({
    baseUrl: standIn.url,
    apiKey: API_KEY,
    model: DEFAULT_AI_IMAGE_MODEL,
    allowPrivateAddresses: true,
    ...options,
  });
}

/**
 * Another web server on 127.0.0.1 that an image URL can point at: `/image.png` is a 64 x 64 PNG, `/moved` redirects to
 * `location`.
 */
async function startImageHost(location = ''): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#c81e1e' } })
    .png()
    .toBuffer();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/image.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (request.url === '/moved') return response.writeHead(302, { location }).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The RGBA of one pixel. */
function pixel(image: RawImage, x: number, y: number): number[] {
  const offset = (y * image.width + x) * 4;
  return [...image.data.subarray(offset, offset + 4)];
}

/** Runs a generation that should fail and returns its error. */
async function failure(generation: Promise<unknown>): Promise<AiImageError> {
  const error = await generation.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AiImageError);
  return error as AiImageError;
}

describe('OpenAiImagesProvider', () => {
  it('turns a base64 answer into RGBA pixels, scaled down to 512 px', async () => {
    const image = await provider().generate('a gold square on blue');
    expect(image.width).toBe(AI_IMAGE_MAX_SIDE);
    expect(image.height).toBe(AI_IMAGE_MAX_SIDE);
    expect(image.data.length).toBe(AI_IMAGE_MAX_SIDE * AI_IMAGE_MAX_SIDE * 4);
    expect(pixel(image, 256, 256)).toEqual([0xf0, 0xc8, 0x14, 255]);
    expect(pixel(image, 20, 20)).toEqual([0x1e, 0x64, 0xc8, 255]);
    expect(pixel(image, 500, 500)).toEqual([0x1e, 0x64, 0xc8, 255]);
  });

  it('keeps the aspect ratio of a tall image and does not enlarge a small one', async () => {
    standIn.setImage({ width: 1024, height: 1792 });
    const tall = await provider().generate('tall');
    expect([tall.width, tall.height]).toEqual([293, 512]);
    standIn.setImage({ width: 256, height: 256 });
    const small = await provider().generate('small');
    expect([small.width, small.height]).toEqual([256, 256]);
  });

  it('sends the model, the styled prompt, one image, the size and b64_json with the bearer key', async () => {
    await provider().generate('red dragon');
    expect(standIn.requests).toHaveLength(1);
    const [request] = standIn.requests;
    expect(request!.path).toBe('/v1/images/generations');
    expect(request!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.contentType).toBe('application/json');
    expect(request!.body).toEqual({
      model: 'dall-e-3',
      prompt: `${CAPE_STYLE_INSTRUCTION}red dragon`,
      n: 1,
      size: '1024x1024',
      response_format: 'b64_json',
    });
    expect(CAPE_STYLE_INSTRUCTION).toMatch(/cape/);
  });

  it('takes a base URL with a trailing slash and another size', async () => {
    await new OpenAiImagesProvider({
      baseUrl: `${standIn.url}/`,
      apiKey: API_KEY,
      model: 'dall-e-2',
      size: '512x512',
    }).generate('stripes');
    expect(standIn.requests[0]!.path).toBe('/v1/images/generations');
    expect(standIn.requests[0]!.body).toMatchObject({ model: 'dall-e-2', size: '512x512' });
  });

  it('leaves response_format out for the GPT image models, which always answer in base64', async () => {
    const image = await provider({ model: 'gpt-image-1' }).generate('waves');
    expect(image.width).toBe(512);
    expect(standIn.requests[0]!.body).toEqual({
      model: 'gpt-image-1',
      prompt: `${CAPE_STYLE_INSTRUCTION}waves`,
      n: 1,
      size: '1024x1024',
    });
  });

  it('downloads the image when the answer only has a URL, without the API key', async () => {
    standIn.setBehaviour({ kind: 'url' });
    const image = await provider().generate('gold');
    expect(pixel(image, 256, 256)).toEqual([0xf0, 0xc8, 0x14, 255]);
    expect(standIn.downloads).toHaveLength(1);
    expect(standIn.downloads[0]!.path).toMatch(/^\/files\/img-[0-9a-f]+\.png$/);
    expect(standIn.downloads[0]!.authorization).toBeUndefined();
  });

  it('refuses image URLs that are not http(s) and fails when the download fails', async () => {
    for (const address of ['file:///etc/passwd', 'data:image/png;base64,AAAA', 'not a url']) {
      standIn.setBehaviour({ kind: 'url', address });
      expect((await failure(provider().generate('x'))).message).toBe(aiImageMessages.failed);
    }
    standIn.setBehaviour({ kind: 'url', downloadStatus: 403 });
    const error = await failure(provider().generate('x'));
    expect(error.message).toBe(aiImageMessages.failed);
    expect(error.detail).toMatch(/403/);
  });

  it('refuses an image URL on a loopback address unless private addresses are allowed, without fetching it', async () => {
    standIn.setBehaviour({ kind: 'url' });
    const error = await failure(provider({ allowPrivateAddresses: false }).generate('gold'));
    expect(error.message).toBe(aiImageMessages.failed);
    expect(error.detail).toMatch(/^pointed at http:\/\/127\.0\.0\.1:\d+, a private address \(127\.0\.0\.1\)$/);
    expect(standIn.downloads).toHaveLength(0);
    for (const address of [
      'http://localhost:9/a.png',
      'http://[::1]:9/a.png',
      'http://10.1.2.3/a.png',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      standIn.setBehaviour({ kind: 'url', address });
      const refused = await failure(
        provider({
          allowPrivateAddresses: false,
          imageHosts: ['localhost', '[::1]', '10.1.2.3', '169.254.169.254'],
        }).generate('x'),
      );
      expect(refused.detail, address).toMatch(/a private address/);
    }
  });

  it("refuses an image URL on a host that is neither the API's own nor a configured one, and a redirect off them, without fetching it", async () => {
    const elsewhere = await startImageHost();
    const configured = await startImageHost(`http://localhost:${new URL(elsewhere.origin).port}/image.png`);
    try {
      standIn.setBehaviour({ kind: 'url', address: `${elsewhere.origin}/image.png` });
      const error = await failure(provider().generate('x'));
      expect(error.message).toBe(aiImageMessages.failed);
      expect(error.detail).toBe(`pointed at ${elsewhere.origin}, which is not an allowed host`);

      // A configured image host is fetched; its redirect to another host is not followed.
      standIn.setBehaviour({ kind: 'url', address: `${configured.origin}/image.png` });
      const image = await provider({ imageHosts: [configured.origin] }).generate('x');
      expect(pixel(image, 10, 10)).toEqual([0xc8, 0x1e, 0x1e, 255]);
      standIn.setBehaviour({ kind: 'url', address: `${configured.origin}/moved` });
      const moved = await failure(provider({ imageHosts: [configured.origin] }).generate('x'));
      expect(moved.detail).toMatch(/^pointed at http:\/\/localhost:\d+, which is not an allowed host$/);
      expect(configured.requests).toEqual(['/image.png', '/moved']);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
      await configured.close();
    }
  });

  it('stops reading an image over its cap', async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && !response.destroyed) {
          sent += 1;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      standIn.setBehaviour({ kind: 'url', address: `${origin}/image.png` });
      const error = await failure(provider({ imageHosts: [origin] }).generate('x'));
      expect(error.message).toBe(aiImageMessages.failed);
      expect(error.detail).toMatch(/^answered more than the \d+ bytes read/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('says the prompt was refused when the safety system rejects it', async () => {
    standIn.setBehaviour(openAiImageFailures.contentPolicy);
    const error = await failure(provider().generate('something not allowed'));
    expect(error.message).toBe('The image service refused this prompt. Try different words.');
    expect(error.detail).toMatch(/^HTTP 400 content_policy_violation: Your request was rejected/);
    standIn.setBehaviour(openAiImageFailures.safetyWithoutCode);
    expect((await failure(provider().generate('something else'))).message).toBe(aiImageMessages.refused);
  });

  it('says the service is busy on 429', async () => {
    standIn.setBehaviour(openAiImageFailures.rateLimited);
    const error = await failure(provider().generate('x'));
    expect(error.message).toBe('The image service is busy. Try again in a minute.');
    expect(error.detail).toBe('HTTP 429 rate_limit_exceeded: Rate limit reached for images per minute.');
  });

  it('says the service failed on other errors and on answers that are not an image', async () => {
    const cases: [string, () => Promise<unknown>][] = [
      ['other 400', () => (standIn.setBehaviour(openAiImageFailures.badRequest), provider().generate('x'))],
      ['500', () => (standIn.setBehaviour(openAiImageFailures.serverError), provider().generate('x'))],
      ['wrong key', () => provider({ apiKey: 'sk-wrong' }).generate('x')],
      ['not JSON', () => (standIn.setBehaviour({ kind: 'not-json' }), provider().generate('x'))],
      ['no data', () => (standIn.setBehaviour({ kind: 'no-data' }), provider().generate('x'))],
      ['not an image', () => (standIn.setBehaviour({ kind: 'not-image' }), provider().generate('x'))],
      ['unknown path', () => provider({ baseUrl: `${standIn.url}/elsewhere` }).generate('x')],
    ];
    for (const [name, run] of cases) {
      const error = await failure(run());
      expect(error.message, name).toBe('The image service failed to make an image. Try again later.');
    }
  });

  it('says the service could not be reached when nothing listens', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }).generate('x'));
    expect(error.message).toBe('The image service could not be reached. Try again later.');
    expect(error.detail).toMatch(/ECONNREFUSED/);
  });

  it('gives up after timeoutMs when the service does not answer, and likewise for the download', async () => {
    standIn.setBehaviour({ kind: 'hang' });
    const started = performance.now();
    const error = await failure(provider({ timeoutMs: 200 }).generate('x'));
    expect(error.message).toBe(aiImageMessages.unreachable);
    expect(error.detail).toBe('no answer within 200 ms');
    expect(performance.now() - started).toBeLessThan(2000);

    standIn.setBehaviour({ kind: 'url-hang' });
    expect((await failure(provider({ timeoutMs: 200 }).generate('x'))).message).toBe(aiImageMessages.unreachable);
    expect(standIn.downloads).toHaveLength(1);
  });

  it("stops with the caller's reason when the caller aborts", async () => {
    standIn.setBehaviour({ kind: 'hang' });
    const controller = new AbortController();
    const generation = provider().generate('x', controller.signal);
    setTimeout(() => controller.abort(new Error('player left')), 50);
    await expect(generation).rejects.toThrow('player left');
    await expect(provider().generate('x', AbortSignal.abort(new Error('already gone')))).rejects.toThrow(
      'already gone',
    );
  });
});

describe('createAiImageProvider', () => {
  it('uses the images API when its URL and key are set, with dall-e-3 unless a model is given', async () => {
    const configured: AiImageProvider = createAiImageProvider({ apiUrl: standIn.url, apiKey: API_KEY });
    expect(configured).toBeInstanceOf(OpenAiImagesProvider);
    expect(configured.builtIn).toBe(false);
    expect(configured.name).toBe('Images API (dall-e-3)');
    await configured.generate('x');
    expect(standIn.requests[0]!.body).toMatchObject({ model: 'dall-e-3' });
    expect(createAiImageProvider({ apiUrl: standIn.url, apiKey: API_KEY, model: 'gpt-image-1' }).name).toBe(
      'Images API (gpt-image-1)',
    );
  });

  it('falls back to the built-in pattern generator without a URL or key', async () => {
    for (const options of [{}, { apiUrl: standIn.url }, { apiKey: API_KEY }, { apiUrl: '', apiKey: '' }]) {
      const fallback = createAiImageProvider(options);
      expect(fallback.builtIn).toBe(true);
      expect(fallback.name).toBe('Built-in pattern generator');
    }
    const image = await createPatternProvider().generate('red and white stripes');
    expect([image.width, image.height]).toEqual([PROMPT_PATTERN_WIDTH, PROMPT_PATTERN_HEIGHT]);
    await expect(createPatternProvider().generate('x', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(standIn.requests).toHaveLength(0);
  });
});
