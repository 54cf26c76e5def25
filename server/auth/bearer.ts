// Calls an app makes for a player with an access token (`Authorization: Bearer`, RFC 6750), on the routes that declare
// the scope they need: reading the token off the request, and the `WWW-Authenticate` challenge of a refusal.
import type { FastifyRequest } from 'fastify';
import type { AppScope } from '../../src/lib/app-scopes.ts';

/** What a call with a wrong, expired or revoked access token is told (401). */
export const INVALID_TOKEN_MESSAGE = 'The access token is wrong, expired or revoked: sign in again.';

/**
 * What a call whose access token lacks the route's scope is told (403): the token does not carry it (it may have been
 * asked for, or refreshed for, fewer scopes than the player approved).
 */
export function insufficientScopeMessage(scope: AppScope): string {
  return `This call needs the ${scope} scope, which this access token does not carry: ask for a code with that scope.`;
}

/** The access token a request carries in `Authorization: Bearer <token>` (the scheme in any case), or undefined. */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The `WWW-Authenticate` value of a refused call to a route that takes access tokens: the error (none when the call
 * carried no credentials) and the scope the route needs.
 */
export function bearerChallenge(scope: AppScope, error?: 'invalid_token' | 'insufficient_scope'): string {
  const message = error === 'invalid_token' ? INVALID_TOKEN_MESSAGE : insufficientScopeMessage(scope);
  return error
    ? `Bearer error="${error}", error_description="${message}", scope="${scope}"`
    : `Bearer scope="${scope}"`;
}
