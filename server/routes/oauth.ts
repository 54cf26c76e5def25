// The authorization server launchers and mods sign players in with: the OAuth 2.0 device flow (RFC 8628) with refresh
// tokens, its metadata (RFC 8414) and token revocation (RFC 7009). Bodies are form-encoded, answers JSON and never
// cached; every refusal is an OAuth error (`{error, error_description}`), as a library expects.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_SCOPE_NAMES, parseAppScopes } from '../../src/lib/app-scopes.ts';
import {
  authorizationServerMetadataSchema,
  DEVICE_CODE_GRANT_TYPE,
  deviceAuthorizationBodySchema,
  deviceAuthorizationSchema,
  oauthErrorSchema,
  revocationBodySchema,
  tokenBodySchema,
  tokenSchema,
} from '../../src/lib/schemas/oauth.ts';
import { findAppClient, type AppClient } from '../auth/app-clients.ts';
import { refreshAppTokens, revokeAppToken } from '../auth/app-grants.ts';
import { pollDeviceRequest, startDeviceRequest } from '../auth/device-requests.ts';
import { OAuthError } from '../auth/oauth-errors.ts';
import type { Db } from '../db/database.ts';
import { handleError } from '../http/errors.ts';
import { emptyResponse, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { AppContext } from '../operations/app-context.ts';

/** Where the metadata is (RFC 8414 section 3: the issuer has no path). */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const DEVICE_AUTHORIZATION_PATH = '/oauth/device_authorization';
const TOKEN_PATH = '/oauth/token';
const REVOCATION_PATH = '/oauth/revoke';

const FORM = 'application/x-www-form-urlencoded';

/** The answers every endpoint may refuse with. */
const refusals = { '4xx': oauthErrorSchema } as const;

/**
 * Reads a form body into its fields; a field sent twice is refused (RFC 6749 section 3.1: no parameter more than once).
 */
function parseForm(_request: FastifyRequest, body: string, done: (error: Error | null, fields?: unknown) => void) {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(fields, name)) return done(new OAuthError('invalid_request', `${name} is sent more than once.`));
    fields[name] = value;
  }
  done(null, fields);
}

/**
 * Answers any failure of an endpoint as an OAuth error: its own refusals as they are, a body that is not a form (or a
 * field that is not text) as `invalid_request`; a fault of the server as any other route's.
 */
function answerRefusal(error: FastifyError | OAuthError, request: FastifyRequest, reply: FastifyReply): void {
  if (!(error instanceof OAuthError) && (error.statusCode ?? 500) >= 500) return handleError(error, request, reply);
  const refusal =
    error instanceof OAuthError
      ? error
      : new OAuthError('invalid_request', `Send the parameters form-encoded (${FORM}), each as text.`);
  reply.status(refusal.status).send(refusal.body());
}

/** Refuses a body that is not a form (JSON, say): the endpoints take form-encoded parameters only. */
function requireForm(request: FastifyRequest): void {
  if (!String(request.headers['content-type'] ?? '').startsWith(FORM))
    throw new OAuthError('invalid_request', `Send the parameters form-encoded (${FORM}).`);
}

/** The registered app a client_id names: `invalid_request` without one, `invalid_client` for an unknown one. */
async function clientOf(db: Db, clientId: string | undefined): Promise<AppClient> {
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is missing.');
  const client = await findAppClient(db, clientId);
  if (!client) throw new OAuthError('invalid_client', 'No app is registered with this client_id.');
  return client;
}

/** A form field the request cannot go without: `invalid_request` when it is missing or empty. */
function required(value: string | undefined, name: string): string {
  if (!value) throw new OAuthError('invalid_request', `${name} is missing.`);
  return value;
}

/** Registers the metadata, the device authorization, token and revocation endpoints. */
export async function oauthRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  const { deviceFlow } = options.config;
  const endpoint = (path: string) => `${deviceFlow.issuer}${path}`;

  app.addContentTypeParser(FORM, { parseAs: 'string' }, (request, body, done) =>
    parseForm(request, body as string, done),
  );
  app.setErrorHandler(answerRefusal);
  // Codes and tokens are secrets: no answer of theirs is kept by a cache (RFC 6749 section 5.1).
  app.addHook('onSend', async (request, reply) => {
    if (request.url !== METADATA_PATH) reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  });

  app.get(
    METADATA_PATH,
    {
      schema: {
        summary: "The authorization server's metadata: where its endpoints are and what they support (RFC 8414)",
        response: { 200: authorizationServerMetadataSchema },
      },
    },
    async () => ({
      issuer: deviceFlow.issuer,
      device_authorization_endpoint: endpoint(DEVICE_AUTHORIZATION_PATH),
      token_endpoint: endpoint(TOKEN_PATH),
      revocation_endpoint: endpoint(REVOCATION_PATH),
      grant_types_supported: [DEVICE_CODE_GRANT_TYPE, 'refresh_token'],
      // No authorization endpoint: sign-ins go through the device flow only.
      response_types_supported: [],
      scopes_supported: APP_SCOPE_NAMES,
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    }),
  );

  app.post(
    DEVICE_AUTHORIZATION_PATH,
    {
      config: {
        rateLimit: {
          max: deviceFlow.deviceRequestsPerMinute,
          timeWindow: 60_000,
          keyGenerator: (request: FastifyRequest) => `device-authorization:${request.ip}`,
          errorResponseBuilder: () =>
            new OAuthError('slow_down', 'Too many sign-in codes asked for from this address: wait a minute.', 429),
        },
      },
      schema: {
        summary: 'Start a sign-in: a device code for the app and a user code for the player (RFC 8628 section 3.1)',
        consumes: [FORM],
        body: deviceAuthorizationBodySchema,
        response: { 200: deviceAuthorizationSchema, ...refusals },
      },
    },
    async (request) => {
      requireForm(request);
      const form = request.body;
      const client = await clientOf(db, form.client_id);
      const scopes = parseAppScopes(form.scope ?? '');
      if (!scopes)
        throw new OAuthError('invalid_scope', `Ask for one or more of these scopes: ${APP_SCOPE_NAMES.join(' ')}.`);
      const started = await startDeviceRequest(db, client, scopes, deviceFlow);
      return {
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: deviceFlow.verificationUri,
        verification_uri_complete: `${deviceFlow.verificationUri}?user_code=${encodeURIComponent(started.userCode)}`,
        expires_in: started.expiresIn,
        interval: started.interval,
      };
    },
  );

  app.post(
    TOKEN_PATH,
    {
      schema: {
        summary: "Poll for a sign-in's tokens with the device code, or exchange a refresh token for new ones",
        description:
          'Device code grant (RFC 8628 section 3.4): `authorization_pending` until the player decides, `slow_down` (and 5 more ' +
          'seconds to wait) for a poll within the interval, `access_denied`, `expired_token`, or the tokens, once. Refresh grant: ' +
          'new tokens, the refresh token rotated; a refresh token used a second time ends the connection (`invalid_grant`).',
        consumes: [FORM],
        body: tokenBodySchema,
        response: { 200: tokenSchema, ...refusals },
      },
    },
    async (request) => {
      requireForm(request);
      const form = request.body;
      const grantType = required(form.grant_type, 'grant_type');
      const client = await clientOf(db, form.client_id);
      if (grantType === DEVICE_CODE_GRANT_TYPE)
        return pollDeviceRequest(db, client, required(form.device_code, 'device_code'), deviceFlow);
      if (grantType === 'refresh_token') {
        const scopes = form.scope === undefined ? undefined : parseAppScopes(form.scope);
        if (scopes === null)
          throw new OAuthError('invalid_scope', 'The scope names no scope, or one that does not exist.');
        return refreshAppTokens(db, client, required(form.refresh_token, 'refresh_token'), scopes, deviceFlow);
      }
      throw new OAuthError(
        'unsupported_grant_type',
        `Use the grant type ${DEVICE_CODE_GRANT_TYPE} or refresh_token: apps sign in with a code on the site.`,
      );
    },
  );

  app.post(
    REVOCATION_PATH,
    {
      schema: {
        summary: 'Sign out: end the connection an access or refresh token belongs to (RFC 7009)',
        description: "Answers 200 for a token that is unknown, expired or another app's too, and then does nothing.",
        consumes: [FORM],
        body: revocationBodySchema,
        response: { 200: emptyResponse('The connection is ended (or there was none)'), ...refusals },
      },
    },
    async (request, reply) => {
      requireForm(request);
      const form = request.body;
      const client = await clientOf(db, form.client_id);
      await revokeAppToken(db, client, required(form.token, 'token'));
      return reply.status(200).send(null);
    },
  );
}
