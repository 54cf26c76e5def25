// The AI cape creator's image providers: an OpenAI-compatible images API, or the built-in pattern generator when none
// is set up.
import sharp from 'sharp';
import { OutsideServiceError } from '../../src/lib/outside-service.ts';
import { fetchOutside, OUTSIDE_JSON_MAX_BYTES, type OutsideAnswer, type OutsideRequest } from './outside-fetch.ts';
import { drawPromptPattern } from '../textures/generators/prompt-pattern.ts';
import type { RawImage } from '../textures/pipeline/raw-image.ts';

/** Something that turns a player's prompt into an image. */
export interface AiImageProvider {
  /** What the provider is called where staff see it. */
  readonly name: string;
  /** True for the generator that runs on this server (no image service). */
  readonly builtIn: boolean;
  /**
   * Makes an image for a prompt; throws AiImageError (its message is safe to show the player), or the signal's reason
   * when aborted.
   */
  generate(prompt: string, signal?: AbortSignal): Promise<RawImage>;
}

/** The messages an AiImageError carries, each safe to show the player. */
export const aiImageMessages = {
  unreachable: 'The image service could not be reached. Try again later.',
  refused: 'The image service refused this prompt. Try different words.',
  busy: 'The image service is busy. Try again in a minute.',
  failed: 'The image service failed to make an image. Try again later.',
} as const;

/**
 * Raised when an image could not be made: `message` is for the player, `detail` (status, service message) for the log.
 */
export class AiImageError extends Error {
  constructor(
    message: (typeof aiImageMessages)[keyof typeof aiImageMessages],
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AiImageError';
  }
}

/** Put before every prompt sent to an image service, so that what comes back suits a cape. */
export const CAPE_STYLE_INSTRUCTION = 'A flat, bold, front-facing pattern for a game cape, no text unless asked: ';

/** The model asked for when none is configured (it takes `response_format` and the 1024x1024 size). */
export const DEFAULT_AI_IMAGE_MODEL = 'dall-e-3';
/** The longest side of an image a provider returns; larger answers are scaled down to it. */
export const AI_IMAGE_MAX_SIDE = 512;
/** The most pixels a service's image may have before it is decoded. */
export const AI_IMAGE_MAX_INPUT_PIXELS = 4096 * 4096;

/**
 * The most bytes of a made image read, as a file or in base64 (a 1024x1024 PNG from an images API is a few megabytes,
 * more than the cap on other outside images).
 */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The most bytes read of a service's JSON answer: the image in base64 and the rest of the answer. */
const MAX_ANSWER_BYTES = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + OUTSIDE_JSON_MAX_BYTES;
/** The images API's name in the log. */
const SERVICE = 'The images API';

/** The options of an OpenAiImagesProvider. */
export interface OpenAiImagesOptions {
  /** The API's base URL, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** How long each request (the generation, and the download when the service answers with a URL) may take. */
  timeoutMs?: number;
  /** The size asked for (`1024x1024` suits dall-e-3 and gpt-image-1; dall-e-2 also takes `512x512` and `256x256`). */
  size?: string;
  /** Hosts (names or origins) an image URL in an answer may point at besides the API's own origin. */
  imageHosts?: string[];
  /** Whether an image URL may point at a private address (a local stand-in). */
  allowPrivateAddresses?: boolean;
}

/** The error part of an OpenAI error answer. */
interface OpenAiErrorBody {
  error?: { message?: unknown; code?: unknown; type?: unknown };
}

/** Decodes an image (any format sharp reads) to 8-bit RGBA, scaled down to AI_IMAGE_MAX_SIDE on its long side. */
async function decodeImage(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: AI_IMAGE_MAX_INPUT_PIXELS, failOn: 'error' })
    .resize({ width: AI_IMAGE_MAX_SIDE, height: AI_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4 || data.length !== info.width * info.height * 4)
    throw new Error(`decoded to ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/** Whether an OpenAI 400 answer says its safety system refused the prompt. */
function isRefusal(body: OpenAiErrorBody | null): boolean {
  const code = body?.error?.code;
  const message = body?.error?.message;
  return (
    code === 'content_policy_violation' ||
    code === 'moderation_blocked' ||
    (typeof message === 'string' && /safety/i.test(message))
  );
}

/** An image provider for an OpenAI-compatible images API (`POST {baseUrl}/images/generations`). */
export class OpenAiImagesProvider implements AiImageProvider {
  readonly name: string;
  readonly builtIn = false;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly model: string;
  private readonly timeoutMs: number;
  private readonly size: string;
  private readonly imageHosts: string[];
  private readonly allowPrivateAddresses: boolean;

  constructor(options: OpenAiImagesOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.size = options.size ?? '1024x1024';
    this.imageHosts = [new URL(this.baseUrl).origin, ...(options.imageHosts ?? [])];
    this.allowPrivateAddresses = options.allowPrivateAddresses ?? false;
    this.name = `Images API (${this.model})`;
  }

  /** Asks the service for one image of the prompt (after CAPE_STYLE_INSTRUCTION) and decodes it. */
  async generate(prompt: string, signal?: AbortSignal): Promise<RawImage> {
    // The GPT image models always answer in base64 and reject `response_format`; the DALL-E models need it.
    const body = {
      model: this.model,
      prompt: CAPE_STYLE_INSTRUCTION + prompt,
      n: 1,
      size: this.size,
      ...(this.model.startsWith('gpt-image') ? {} : { response_format: 'b64_json' }),
    };
    const response = await this.request({
      url: `${this.baseUrl}/images/generations`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
      maxBytes: MAX_ANSWER_BYTES,
      signal,
    });
    if (!response.ok) throw statusError(response);
    const answer = parseJsonObject(response.body);
    if (!answer) throw new AiImageError(aiImageMessages.failed, 'the answer was not a JSON object');
    const data = answer.data;
    const image = Array.isArray(data)
      ? (data[0] as { b64_json?: unknown; url?: unknown } | null | undefined)
      : undefined;
    let bytes: Buffer;
    if (typeof image?.b64_json === 'string' && image.b64_json.length > 0) bytes = Buffer.from(image.b64_json, 'base64');
    else if (typeof image?.url === 'string') bytes = await this.download(image.url, signal);
    else throw new AiImageError(aiImageMessages.failed, 'the answer had no data[0].b64_json or data[0].url');
    try {
      return await decodeImage(bytes);
    } catch (error) {
      throw new AiImageError(aiImageMessages.failed, `the image did not decode: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /**
   * Fetches the image at a URL the service answered with, by the outside address rule: only from the API's own origin
   * or the configured image hosts, never a private address unless allowed (the API key is not sent).
   */
  private async download(address: string, signal: AbortSignal | undefined): Promise<Buffer> {
    const response = await this.request({
      url: address,
      headers: { accept: 'image/*' },
      rule: { hosts: this.imageHosts, allowPrivate: this.allowPrivateAddresses },
      maxBytes: MAX_IMAGE_BYTES,
      signal,
    });
    if (!response.ok) throw new AiImageError(aiImageMessages.failed, `the image URL answered ${response.status}`);
    return response.body;
  }

  /**
   * Sends one request within the timeout: failing to connect or running out of time is "could not be reached", any
   * other failure (an answer over its cap, an image URL the rule refuses) "failed"; the caller's abort rethrows its
   * reason.
   */
  private async request(request: Omit<OutsideRequest, 'service' | 'timeoutMs'>): Promise<OutsideAnswer> {
    try {
      return await fetchOutside({ ...request, service: SERVICE, timeoutMs: this.timeoutMs });
    } catch (error) {
      if (!(error instanceof OutsideServiceError)) throw error;
      const unreachable = error.failure === 'unreachable' || error.failure === 'timeout';
      throw new AiImageError(unreachable ? aiImageMessages.unreachable : aiImageMessages.failed, error.detail, {
        cause: error,
      });
    }
  }
}

/** The error for a non-2xx answer: refused (400 from the safety system), busy (429) or failed. */
function statusError(response: OutsideAnswer): AiImageError {
  const body = parseJsonObject(response.body) as OpenAiErrorBody | null;
  const serviceMessage = typeof body?.error?.message === 'string' ? body.error.message : '';
  const detail = `HTTP ${response.status}${typeof body?.error?.code === 'string' ? ` ${body.error.code}` : ''}${serviceMessage ? `: ${serviceMessage}` : ''}`;
  if (response.status === 400 && isRefusal(body)) return new AiImageError(aiImageMessages.refused, detail);
  if (response.status === 429) return new AiImageError(aiImageMessages.busy, detail);
  return new AiImageError(aiImageMessages.failed, detail);
}

/** Bytes parsed as a JSON object; null when they are missing, not JSON, or not an object. */
function parseJsonObject(bytes: Buffer | null): Record<string, unknown> | null {
  if (!bytes) return null;
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The built-in generator: draws the prompt's colour, shape and text words as a pattern (see prompt-pattern.ts). */
export function createPatternProvider(): AiImageProvider {
  return {
    name: 'Built-in pattern generator',
    builtIn: true,
    generate(prompt: string, signal?: AbortSignal): Promise<RawImage> {
      return new Promise((resolve) => {
        signal?.throwIfAborted();
        resolve(drawPromptPattern(prompt));
      });
    },
  };
}

/**
 * The OpenAI-compatible provider when apiUrl and apiKey are set (model DEFAULT_AI_IMAGE_MODEL unless given), else the
 * built-in one.
 */
export function createAiImageProvider(options: {
  apiUrl?: string;
  apiKey?: string;
  model?: string;
  imageHosts?: string[];
  allowPrivateAddresses?: boolean;
}): AiImageProvider {
  if (!options.apiUrl || !options.apiKey) return createPatternProvider();
  return new OpenAiImagesProvider({
    baseUrl: options.apiUrl,
    apiKey: options.apiKey,
    model: options.model || DEFAULT_AI_IMAGE_MODEL,
    imageHosts: options.imageHosts,
    allowPrivateAddresses: options.allowPrivateAddresses,
  });
}
