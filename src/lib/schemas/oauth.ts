// The schemas of the authorization server that launchers and mods sign in with (the OAuth 2.0 device flow): its
// metadata, the form bodies of its endpoints, their answers and their errors.
import { z } from 'zod';
import { APP_SCOPE_NAMES } from '../app-scopes';

/** The grant type of a device code poll (RFC 8628). */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The error codes the endpoints answer with (RFC 6749 section 5.2, RFC 8628 section 3.5). */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
  'unsupported_token_type',
  'authorization_pending',
  'slow_down',
  'access_denied',
  'expired_token',
] as const;

/** An endpoint's refusal: the code a library acts on, and a sentence for people. */
export const oauthErrorSchema = z
  .object({ error: z.enum(OAUTH_ERROR_CODES), error_description: z.string() })
  .meta({ id: 'OAuthError', description: 'A refusal (RFC 6749 section 5.2): the error code and a sentence' });

/** A form field the endpoint reads itself (a missing or repeated one is `invalid_request`). */
function field(description: string, example?: string) {
  return z
    .string()
    .optional()
    .meta(example === undefined ? { description } : { description, example });
}

/** The client_id field every endpoint takes (apps are public clients: no secret). */
const clientIdField = field('The app\'s client_id, from `cloakroom oauth-client add "NAME"`');

/** GET /.well-known/oauth-authorization-server: where the endpoints are and what they support (RFC 8414). */
export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    device_authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    grant_types_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    scopes_supported: z.array(z.enum(APP_SCOPE_NAMES)),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
  })
  .meta({ id: 'AuthorizationServerMetadata' });

/** POST /oauth/device_authorization's form. */
export const deviceAuthorizationBodySchema = z.object({
  client_id: clientIdField,
  scope: field('The scopes the app asks for, space-separated', 'wardrobe:read textures:upload'),
});

/** What POST /oauth/device_authorization answers (RFC 8628 section 3.2). */
export const deviceAuthorizationSchema = z
  .object({
    device_code: z.string().meta({ description: 'What the app polls the token endpoint with; keep it secret' }),
    user_code: z.string().meta({ description: 'What the player types on the page: 8 letters, XXXX-XXXX' }),
    verification_uri: z.string().meta({ description: "The site's /device page" }),
    verification_uri_complete: z.string().meta({ description: 'The page with the code filled in (for a link or QR)' }),
    expires_in: z.number().int().meta({ description: 'Seconds until both codes expire' }),
    interval: z.number().int().meta({ description: 'Seconds to wait between two polls' }),
  })
  .meta({ id: 'DeviceAuthorization' });

/** POST /oauth/token's form: a device code poll or a refresh. */
export const tokenBodySchema = z.object({
  grant_type: field(`\`${DEVICE_CODE_GRANT_TYPE}\` or \`refresh_token\``),
  client_id: clientIdField,
  device_code: field('The device code (device code grant)'),
  refresh_token: field('The refresh token (refresh grant); each use answers a new one'),
  scope: field("Fewer scopes for the new access token (refresh grant; at most the player's approved ones)"),
});

/** What POST /oauth/token answers (RFC 6749 section 5.1). */
export const tokenSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    scope: z.string(),
  })
  .meta({ id: 'TokenAnswer' });

/** POST /oauth/revoke's form (RFC 7009). */
export const revocationBodySchema = z.object({
  token: field('An access or refresh token: the connection it belongs to ends'),
  token_type_hint: field('`access_token` or `refresh_token` (either is looked up anyway)'),
  client_id: clientIdField,
});
