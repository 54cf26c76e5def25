// Rate limits: @fastify/rate-limit settings that count each logged-in player (a visitor by address), each client
// address, or all calls of a bearer key holder, and answer 429 with a message.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * A route's `config.rateLimit` allowing `max` calls per `timeWindowMs` to each player, counted under `name`; past it,
 * 429 with `message` (and `onLimited` is told, for the metrics).
 */
export function perUserRateLimit(
  name: string,
  max: number,
  timeWindowMs: number,
  message: string,
  onLimited?: () => void,
) {
  return {
    max,
    timeWindow: timeWindowMs,
    keyGenerator: async (request: FastifyRequest) => `${name}:${(await request.currentUser())?.uuid ?? request.ip}`,
    errorResponseBuilder: () => {
      onLimited?.();
      return new HttpError(429, message);
    },
  };
}

/** How long the budget of a player's texture changes runs. */
const TEXTURE_CHANGE_WINDOW_MS = 10 * 60_000;

/**
 * A route's `config.rateLimit` on the one budget of a player's texture changes: every call that changes what a player
 * wears (an upload, a take-off, wearing a wardrobe item, a gallery item or a creator's cape, a wardrobe change) counts
 * against the same `max` per 10 minutes; past it, 429 with the route's `message` (and `onLimited` is told).
 */
export function textureChangeRateLimit(max: number, message: string, onLimited?: () => void) {
  return {
    ...perUserRateLimit('texture-change', max, TEXTURE_CHANGE_WINDOW_MS, message, onLimited),
    groupId: 'texture-change',
  };
}

/**
 * A route's `config.rateLimit` allowing `max` calls per `timeWindowMs` from each client address (callers with no
 * session, such as payment providers), counted under `name`; past it, 429 with `message`.
 */
export function perAddressRateLimit(name: string, max: number, timeWindowMs: number, message: string) {
  return {
    max,
    timeWindow: timeWindowMs,
    keyGenerator: (request: FastifyRequest) => `${name}:${request.ip}`,
    errorResponseBuilder: () => new HttpError(429, message),
  };
}

/**
 * A route's `config.rateLimit` allowing `max` calls per `timeWindowMs` to the holder of its bearer key, all counted
 * under `name`; it is counted in preValidation, after the route's key check, so calls without the key never use it up;
 * past it, 429 with `message`.
 */
export function keyHolderRateLimit(name: string, max: number, timeWindowMs: number, message: string) {
  return {
    max,
    timeWindow: timeWindowMs,
    hook: 'preValidation' as const,
    keyGenerator: () => name,
    errorResponseBuilder: () => new HttpError(429, message),
  };
}
