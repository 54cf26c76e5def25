// What the creators' calls share: a creator's cape answered as the PNG or, asked for JSON, its URLs; the creators'
// forms, settings and path parameters read with their messages; and the route config of a generator's call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CREATOR_INPUT_MAX_BYTES,
  CREATOR_MAX_SCALE,
  CREATOR_MIN_SCALE,
  creatorMessages,
  HEX_COLOUR_PATTERN,
  SLIDER_MAX,
  SLIDER_MIN,
} from '../../../src/lib/creator-rules.ts';
import { z } from 'zod';
import { BOOLEAN_TEXTS, isTrueText } from '../../../src/lib/boolean-text.ts';
import { playerMessages } from '../../../src/lib/player-messages.ts';
import { usernameField } from '../../../src/lib/schemas/ids.ts';
import type { Config, CreatorsConfig } from '../../config/index.ts';
import type { Made, StoredCreation } from '../../creators/creations.ts';
import type { Refused } from '../../../src/lib/refusals.ts';
import { HttpError } from '../../http/errors.ts';
import { sendRefusal } from '../../http/refusal-reply.ts';
import { readMultipart } from '../../http/multipart.ts';
import { errorResponses, fileResponse, sendFile } from '../../http/route-schemas.ts';
import { textureUrl } from '../../http/texture-url.ts';
import { perUserRateLimit } from '../../http/user-rate-limit.ts';
import type { AppContext } from '../../operations/app-context.ts';
import type { CreationRequest } from '../../textures/generators/index.ts';
import { parseHexColour, type Rgba } from '../../textures/pipeline/raw-image.ts';

/** The route config of a generator's call: a session, and the creators' shared per-player limit. */
export function creatorCallConfig(settings: CreatorsConfig) {
  return {
    auth: 'session' as const,
    rateLimit: perUserRateLimit('creators', settings.callsPerMinute, 60_000, creatorMessages.tooManyRequests),
  };
}

/** The responses of a generator's call that answers the PNG (or its URLs as JSON). */
export const creationImageResponses = {
  200: fileResponse('image/png', 'The cape (or, with `Accept: application/json`, its URLs as a Creation)'),
  ...errorResponses,
};

/** Whether the caller asked for JSON rather than the image. */
export function wantsJson(request: FastifyRequest): boolean {
  return /\bapplication\/json\b/.test(request.headers.accept ?? '');
}

/**
 * Where the site calls the API (its own origin unless the API is elsewhere): the preview is asked for with the session
 * cookie.
 */
function apiBaseUrl(config: Config): string {
  return config.apiOrigin ?? new URL(config.siteUrl).origin;
}

/** The JSON description of a creation: its texture URL, its preview URL, its size and any note. */
export function describeCreation(config: Config, creation: StoredCreation) {
  return {
    success: true as const,
    hash: creation.hash,
    cape: textureUrl(config.publicBaseUrl, creation.hash),
    preview: `${apiBaseUrl(config)}/api/gallery/creations/${creation.hash}/preview`,
    width: creation.width,
    height: creation.height,
    frames: creation.frames,
    ...(creation.notice ? { notice: creation.notice } : {}),
  };
}

/** Makes a creation with `make` and answers it as JSON or as the PNG, or answers its refusal. */
export async function answerMade(
  options: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  make: () => Promise<Made | Refused>,
  json = wantsJson(request),
) {
  const made = await make();
  if ('refusal' in made) return sendRefusal(reply, made.refusal);
  const { creation } = made;
  reply.header('x-creation-cache', made.cached ? 'hit' : 'miss');
  if (json) return reply.header('cache-control', 'no-store').send(describeCreation(options.config, creation));
  const bytes = await options.library.readRegistered(creation.hash);
  if (!bytes) throw new HttpError(410, creatorMessages.expired);
  reply.header('cache-control', 'no-store').header('x-texture-hash', creation.hash);
  return sendFile(reply, 'image/png', bytes);
}

/**
 * Makes the creation for a generator's settings, made by the player `maker` (its image work counted to them), and
 * answers it.
 */
export function answerCreation(
  options: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  maker: string,
  creationRequest: CreationRequest,
  json = wantsJson(request),
) {
  return answerMade(options, request, reply, () => options.creations.make(creationRequest, maker), json);
}

/** Reads a creator's multipart form with its picture fields; throws 413 for a picture over the limit. */
export async function readCreatorForm(request: FastifyRequest, reply: FastifyReply, fileFields: string[]) {
  const upload = await readMultipart(request, reply, CREATOR_INPUT_MAX_BYTES, fileFields);
  if (upload.file === 'too-big') throw new HttpError(413, creatorMessages.inputTooBig);
  return upload;
}

/**
 * Reads a creator form's scale (1..6), colour (hex or 'auto' where allowed) and elytra flag; throws a 422 with the
 * message.
 */
export function readCapeSettings(
  fields: Record<string, string>,
  allowAuto: boolean,
): { scale: number; colour: Rgba | 'auto'; elytra: boolean } {
  const scale = Number(fields.scale ?? '1');
  if (!Number.isInteger(scale) || scale < CREATOR_MIN_SCALE || scale > CREATOR_MAX_SCALE)
    throw new HttpError(422, creatorMessages.badScale, { scale: [creatorMessages.badScale] });
  const colourText = (fields.color ?? (allowAuto ? 'auto' : '000000')).trim();
  const colour = allowAuto && colourText === 'auto' ? 'auto' : parseHexColour(colourText);
  if (!colour) throw new HttpError(422, creatorMessages.badColour, { color: [creatorMessages.badColour] });
  return { scale, colour, elytra: isTrueText(fields.elytra) };
}

/** A colour as six hex digits. */
export const hexColourParam = z.string().regex(HEX_COLOUR_PATTERN, { message: creatorMessages.badColour });
/** A slider's value, a whole number from SLIDER_MIN to SLIDER_MAX. */
export const sliderParam = z.coerce.number().int().min(SLIDER_MIN).max(SLIDER_MAX);
/** A player's name. */
export const usernameParam = usernameField(playerMessages.usernamePattern);
/** A boolean written as text ('true', 'false', '1' or '0'). */
export const booleanParam = z.enum(BOOLEAN_TEXTS).transform(isTrueText);
