// A local stand-in for an OpenAI-compatible images API that speaks its protocol: `POST /v1/images/generations` (JSON,
// bearer key) answers one PNG drawn with sharp, as `data[0].b64_json` or (DALL-E's default, or when told) as
// `data[0].url` served by the stand-in; it records every request and can be told to fail as the real service does: an
// error status with OpenAI's error body, an answer that is not JSON or not an image, or no answer at all.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { requestBody } from './request-body.ts';

/** A generation request as the stand-in received it. */
export interface StandInImageRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body (null when it did not parse). */
  body: Record<string, unknown> | null;
}

/** An image download (a `data[0].url` being fetched) as the stand-in received it. */
export interface StandInImageDownload {
  path: string;
  authorization: string | undefined;
}

/** How the stand-in answers the next generation requests. */
export type OpenAiImagesBehaviour =
  /** The image, as the request asked (b64_json, or a URL for DALL-E without `response_format`). */
  | { kind: 'image' }
  /** Only `data[0].url`; `address` replaces the stand-in's own download URL, `downloadStatus` its 200. */
  | { kind: 'url'; address?: string; downloadStatus?: number }
  /** Only `data[0].url`, whose download never answers. */
  | { kind: 'url-hang' }
  /** An error status with an OpenAI error body (`{error: {message, type, param, code}}`). */
  | { kind: 'error'; status: number; code: string | null; message: string; type?: string }
  /** 200 with base64 of bytes that are not an image. */
  | { kind: 'not-image' }
  /** 200 with a body that is not JSON. */
  | { kind: 'not-json' }
  /** 200 with an empty `data` list. */
  | { kind: 'no-data' }
  /** No answer at all (the connection stays open until the stand-in closes). */
  | { kind: 'hang' };

/** The failures the real service answers with, ready to pass to setBehaviour. */
export const openAiImageFailures = {
  contentPolicy: {
    kind: 'error',
    status: 400,
    code: 'content_policy_violation',
    message:
      'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
    type: 'invalid_request_error',
  },
  safetyWithoutCode: {
    kind: 'error',
    status: 400,
    code: null,
    message: 'Your request was rejected by the safety system. safety_violations=[sexual].',
    type: 'image_generation_user_error',
  },
  badRequest: {
    kind: 'error',
    status: 400,
    code: 'invalid_size',
    message: "Invalid value: '100x100'. Supported values are: '1024x1024'.",
    type: 'invalid_request_error',
  },
  rateLimited: {
    kind: 'error',
    status: 429,
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for images per minute.',
    type: 'requests',
  },
  serverError: {
    kind: 'error',
    status: 500,
    code: null,
    message: 'The server had an error while processing your request.',
    type: 'server_error',
  },
} as const satisfies Record<string, OpenAiImagesBehaviour>;

/** What the stand-in draws: a background with a centred square half the image's size. */
export interface StandInImage {
  width: number;
  height: number;
  background: string;
  square: string;
}

/** A running stand-in. */
export interface OpenAiImagesStandIn {
  /** The API base URL (`http://127.0.0.1:port/v1`). */
  url: string;
  /** Every generation request, oldest first. */
  requests: StandInImageRequest[];
  /** Every image download, oldest first. */
  downloads: StandInImageDownload[];
  /** How the following generation requests are answered (`{kind: 'image'}` at the start). */
  setBehaviour(behaviour: OpenAiImagesBehaviour): void;
  /** What the following images look like (1024 x 1024, blue with a gold square, at the start). */
  setImage(image: Partial<StandInImage>): void;
  close(): Promise<void>;
}

/** Text parsed as a JSON object; null when it is not JSON or not an object. */
function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Answers with an OpenAI error body. */
function sendError(
  response: http.ServerResponse,
  status: number,
  message: string,
  code: string | null,
  type = 'invalid_request_error',
  param: string | null = null,
) {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { message, type, param, code } }));
}

/** Starts a stand-in on 127.0.0.1 (port 0 picks a free one) that accepts the API key `apiKey`. */
export async function startOpenAiImagesStandIn(options: {
  apiKey: string;
  port?: number;
}): Promise<OpenAiImagesStandIn> {
  const requests: StandInImageRequest[] = [];
  const downloads: StandInImageDownload[] = [];
  const files = new Map<string, Buffer>();
  const hangingFiles = new Set<string>();
  let behaviour: OpenAiImagesBehaviour = { kind: 'image' };
  let image: StandInImage = { width: 1024, height: 1024, background: '#1e64c8', square: '#f0c814' };
  let base = '';

  const drawImage = () =>
    sharp({ create: { width: image.width, height: image.height, channels: 4, background: image.background } })
      .composite([
        {
          input: {
            create: {
              width: Math.round(image.width / 2),
              height: Math.round(image.height / 2),
              channels: 4,
              background: image.square,
            },
          },
          left: Math.round(image.width / 4),
          top: Math.round(image.height / 4),
        },
      ])
      .png()
      .toBuffer();
  const answer = (response: http.ServerResponse, data: unknown[]) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data }));
  const fileUrl = (bytes: Buffer | null) => {
    const name = `/files/img-${randomBytes(6).toString('hex')}.png`;
    if (bytes) files.set(name, bytes);
    else hangingFiles.add(name);
    return `${base}${name}`;
  };

  const generate = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const text = await requestBody(request);
    const body = parseJsonObject(text);
    requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body,
    });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(response, 401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    if (!body) return sendError(response, 400, 'We could not parse the JSON body of your request.', null);
    const model = typeof body.model === 'string' ? body.model : 'dall-e-2';
    if (typeof body.prompt !== 'string' || body.prompt === '')
      return sendError(
        response,
        400,
        "Missing required parameter: 'prompt'.",
        'missing_required_parameter',
        undefined,
        'prompt',
      );
    if (body.n !== undefined && body.n !== 1)
      return sendError(response, 400, "Invalid 'n': the stand-in makes one image.", 'invalid_value', undefined, 'n');
    if (body.response_format !== undefined && model.startsWith('gpt-image')) {
      return sendError(
        response,
        400,
        "Unknown parameter: 'response_format'.",
        'unknown_parameter',
        undefined,
        'response_format',
      );
    }
    switch (behaviour.kind) {
      case 'hang':
        return; // never answered; close() ends the connection
      case 'error':
        return sendError(response, behaviour.status, behaviour.message, behaviour.code, behaviour.type);
      case 'not-json':
        return response.writeHead(200, { 'content-type': 'application/json' }).end('<html>upstream error</html>');
      case 'no-data':
        return answer(response, []);
      case 'not-image':
        return answer(response, [{ b64_json: Buffer.from('these bytes are not an image').toString('base64') }]);
      case 'url-hang':
        return answer(response, [{ url: fileUrl(null) }]);
      case 'url':
        return answer(response, [{ url: behaviour.address ?? fileUrl(await drawImage()) }]);
      case 'image': {
        const png = await drawImage();
        const asUrl = !model.startsWith('gpt-image') && body.response_format !== 'b64_json';
        return answer(response, [
          asUrl ? { url: fileUrl(png) } : { b64_json: png.toString('base64'), revised_prompt: body.prompt },
        ]);
      }
    }
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (request.method === 'POST' && path === '/v1/images/generations') return generate(request, response);
    if (request.method === 'GET' && path.startsWith('/files/')) {
      downloads.push({ path, authorization: request.headers.authorization });
      if (hangingFiles.has(path)) return; // never answered
      const status = behaviour.kind === 'url' ? (behaviour.downloadStatus ?? 200) : 200;
      const bytes = files.get(path);
      if (!bytes || status !== 200)
        return response.writeHead(bytes ? status : 404, { 'content-type': 'text/plain' }).end('Not here');
      return response.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length }).end(bytes);
    }
    if (request.method === 'GET' && path === '/')
      return response.writeHead(200, { 'content-type': 'text/plain' }).end('Images API stand-in');
    sendError(response, 404, `Unknown request URL: ${request.method} ${path}.`, 'unknown_url');
  };
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = origin;
  return {
    url: `${origin}/v1`,
    requests,
    downloads,
    setBehaviour: (value) => void (behaviour = value),
    setImage: (value) => void (image = { ...image, ...value }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
