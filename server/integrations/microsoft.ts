// The Microsoft login's outside calls: the Microsoft identity platform (authorization code flow with PKCE, through
// openid-client), then Xbox Live user authentication, the Xbox security token service (XSTS), the game services' login
// with Xbox and the player's game profile. Each failure a player can meet becomes a MicrosoftLoginError with its
// reason.
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { MicrosoftLoginFailure } from '../../src/lib/login-errors.ts';
import { isUsername, normalizeUuid } from '../../src/lib/ids.ts';
import type { MicrosoftLoginConfig } from '../config/index.ts';
import { OutsideServiceError } from '../../src/lib/outside-service.ts';
import { cappedFetch, fetchOutside, OUTSIDE_JSON_MAX_BYTES } from './outside-fetch.ts';

/** The permissions asked for: signing in to Xbox Live, and a refresh token (Microsoft's usual pair for game logins). */
export const MICROSOFT_SCOPE = 'XboxLive.signin offline_access';
/** The relying party whose XSTS token the game services take. */
const GAME_SERVICES_RELYING_PARTY = 'rp://api.minecraftservices.com/';
/** How long each outside call may take. */
const CALL_TIMEOUT_MS = 10_000;

/** XSTS refusals (`XErr`) that say something about the player's account. */
const XSTS_REFUSALS: Record<number, MicrosoftLoginFailure> = {
  2148916233: 'noXboxAccount',
  2148916235: 'xboxUnavailableInRegion',
  2148916236: 'adultVerificationNeeded',
  2148916237: 'adultVerificationNeeded',
  2148916238: 'childAccount',
};

/**
 * A Microsoft login that did not reach a game profile: why (a message key the player is shown), and what happened (for
 * the log).
 */
export class MicrosoftLoginError extends Error {
  constructor(
    readonly reason: MicrosoftLoginFailure,
    detail: string,
  ) {
    super(detail);
  }
}

/** The player a Microsoft account plays as. */
export interface GameProfile {
  uuid: string;
  username: string;
}

/** What the authorization response brought back, and the verifier of the challenge the login started with. */
export interface AuthorizationResult {
  code: string;
  state: string;
  codeVerifier: string;
}

/**
 * A new login: the Microsoft sign-in page to send the browser to, and the state and PKCE verifier to keep for the
 * callback.
 */
export interface StartedLogin {
  url: URL;
  state: string;
  codeVerifier: string;
}

/** The Microsoft login's two steps: the sign-in page's address, and the way from its code to the game profile. */
export interface MicrosoftLogin {
  /**
   * A fresh state and PKCE verifier, and the Microsoft sign-in page that carries the state and the verifier's S256
   * challenge.
   */
  startLogin(): Promise<StartedLogin>;
  /** Redeems the code and walks Xbox Live to the player's game profile; throws MicrosoftLoginError. */
  gameProfile(result: AuthorizationResult): Promise<GameProfile>;
}

const xboxTokenSchema = z.object({
  Token: z.string().min(1),
  DisplayClaims: z.object({ xui: z.array(z.object({ uhs: z.string().min(1) })).min(1) }),
});
const xboxRefusalSchema = z.object({ XErr: z.coerce.number() });
const gameLoginSchema = z.object({ access_token: z.string().min(1) });
const gameProfileSchema = z.object({ id: z.string(), name: z.string() });

/** A JSON answer: its status and parsed body (null when it has none or it is not JSON). */
interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * Sends a JSON request to an outside service (its answer read up to OUTSIDE_JSON_MAX_BYTES); any failure to answer is
 * `unavailable`.
 */
async function callJson(
  what: string,
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> },
): Promise<JsonAnswer> {
  try {
    const answer = await fetchOutside({
      service: what,
      url,
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      maxBytes: OUTSIDE_JSON_MAX_BYTES,
      timeoutMs: CALL_TIMEOUT_MS,
    });
    return { status: answer.status, body: answer.jsonOrNull() };
  } catch (error) {
    if (error instanceof OutsideServiceError) throw new MicrosoftLoginError('unavailable', error.message);
    throw error;
  }
}

/** Reads a successful answer with its schema; anything else is `unavailable`. */
function expectBody<T>(what: string, answer: JsonAnswer, schema: z.ZodType<T>): T {
  const parsed = answer.status === 200 ? schema.safeParse(answer.body) : undefined;
  if (!parsed?.success)
    throw new MicrosoftLoginError(
      'unavailable',
      `${what} answered ${answer.status}: ${JSON.stringify(answer.body)?.slice(0, 300)}`,
    );
  return parsed.data;
}

/**
 * Turns a failed token request into the reason the player is shown: a code that is wrong, used or expired, or Microsoft
 * being unavailable.
 */
function tokenFailure(error: unknown): MicrosoftLoginError {
  if (error instanceof oidc.ResponseBodyError) {
    const reason = error.error === 'invalid_grant' ? 'expired' : 'unavailable';
    return new MicrosoftLoginError(
      reason,
      `The Microsoft token endpoint answered ${error.status} ${error.error}: ${error.error_description ?? ''}`,
    );
  }
  if (error instanceof oidc.AuthorizationResponseError)
    return new MicrosoftLoginError('expired', `The authorization response was refused: ${error.error}`);
  // openid-client wraps what its fetch threw (an OutsideServiceError: too long, no answer in time) as the cause.
  const cause = (error as Error).cause;
  const detail =
    cause instanceof OutsideServiceError
      ? cause.message
      : `The Microsoft token endpoint failed: ${(error as Error).message}`;
  return new MicrosoftLoginError('unavailable', detail);
}

/**
 * Sets up the Microsoft login for an app registration: server metadata from the authority (no discovery call), PKCE,
 * and the Xbox Live chain.
 */
export function createMicrosoftLogin(settings: MicrosoftLoginConfig): MicrosoftLogin {
  const authority = settings.authorityUrl;
  const configuration = new oidc.Configuration(
    {
      issuer: authority,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      token_endpoint: `${authority}/oauth2/v2.0/token`,
    },
    settings.clientId,
    undefined,
    settings.clientSecret ? oidc.ClientSecretPost(settings.clientSecret) : oidc.None(),
  );
  configuration.timeout = CALL_TIMEOUT_MS / 1000;
  configuration[oidc.customFetch] = cappedFetch('The Microsoft token endpoint', {
    maxBytes: OUTSIDE_JSON_MAX_BYTES,
    timeoutMs: CALL_TIMEOUT_MS,
  });
  // Only a local stand-in (tests) is plain HTTP; Microsoft itself is HTTPS. (openid-client marks this deprecated only
  // to make it stand out.)
  if (new URL(authority).protocol === 'http:') oidc.allowInsecureRequests(configuration);

  /** The Microsoft access token for an authorization code. */
  async function accessToken(result: AuthorizationResult): Promise<string> {
    const callback = new URL(settings.redirectUri);
    callback.search = new URLSearchParams({ code: result.code, state: result.state }).toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        expectedState: result.state,
        pkceCodeVerifier: result.codeVerifier,
      });
      return tokens.access_token;
    } catch (error) {
      throw tokenFailure(error);
    }
  }

  /** The Xbox Live user token and user hash for a Microsoft access token. */
  async function xboxUserToken(microsoftToken: string): Promise<{ token: string; userHash: string }> {
    const answer = await callJson('Xbox Live user authentication', `${settings.xblAuthUrl}/user/authenticate`, {
      method: 'POST',
      headers: { 'x-xbl-contract-version': '1' },
      body: {
        Properties: { AuthMethod: 'RPS', SiteName: 'user.auth.xboxlive.com', RpsTicket: `d=${microsoftToken}` },
        RelyingParty: 'http://auth.xboxlive.com',
        TokenType: 'JWT',
      },
    });
    refuseWithXErr('Xbox Live user authentication', answer);
    const body = expectBody('Xbox Live user authentication', answer, xboxTokenSchema);
    return { token: body.Token, userHash: body.DisplayClaims.xui[0]!.uhs };
  }

  /** The XSTS token for the game services; the account refusals come as 401 with an XErr. */
  async function xstsToken(userToken: string): Promise<{ token: string; userHash: string }> {
    const answer = await callJson('The Xbox security token service', `${settings.xstsAuthUrl}/xsts/authorize`, {
      method: 'POST',
      headers: { 'x-xbl-contract-version': '1' },
      body: {
        Properties: { SandboxId: 'RETAIL', UserTokens: [userToken] },
        RelyingParty: GAME_SERVICES_RELYING_PARTY,
        TokenType: 'JWT',
      },
    });
    refuseWithXErr('The Xbox security token service', answer);
    const body = expectBody('The Xbox security token service', answer, xboxTokenSchema);
    return { token: body.Token, userHash: body.DisplayClaims.xui[0]!.uhs };
  }

  /** The game services' access token for an XSTS token. */
  async function gameServicesToken(xsts: { token: string; userHash: string }): Promise<string> {
    const answer = await callJson(
      'The game services login',
      `${settings.minecraftServicesUrl}/authentication/login_with_xbox`,
      {
        method: 'POST',
        body: { identityToken: `XBL3.0 x=${xsts.userHash};${xsts.token}` },
      },
    );
    return expectBody('The game services login', answer, gameLoginSchema).access_token;
  }

  /** The player's profile; none (404) means the account does not own the game or has no player name yet. */
  async function profile(gameToken: string): Promise<GameProfile> {
    const answer = await callJson('The game profile', `${settings.minecraftServicesUrl}/minecraft/profile`, {
      method: 'GET',
      headers: { authorization: `Bearer ${gameToken}` },
    });
    if (answer.status === 404)
      throw new MicrosoftLoginError('noGame', 'The game services know no profile for this account');
    const body = expectBody('The game profile', answer, gameProfileSchema);
    const uuid = normalizeUuid(body.id);
    if (!uuid || !isUsername(body.name))
      throw new MicrosoftLoginError(
        'unavailable',
        `The game profile is not a player: ${JSON.stringify(body).slice(0, 200)}`,
      );
    return { uuid, username: body.name };
  }

  return {
    async startLogin() {
      const state = oidc.randomState();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: settings.redirectUri,
        scope: MICROSOFT_SCOPE,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        // Players often have several Microsoft accounts: let them pick the one that owns the game.
        prompt: 'select_account',
      });
      return { url, state, codeVerifier };
    },
    async gameProfile(result) {
      const microsoftToken = await accessToken(result);
      const user = await xboxUserToken(microsoftToken);
      const xsts = await xstsToken(user.token);
      return profile(await gameServicesToken(xsts));
    },
  };
}

/** Throws the account's reason when an Xbox service refused it with an XErr (unknown codes: `xboxRefused`). */
function refuseWithXErr(what: string, answer: JsonAnswer): void {
  if (answer.status !== 401 && answer.status !== 403) return;
  const refusal = xboxRefusalSchema.safeParse(answer.body);
  if (!refusal.success) return;
  throw new MicrosoftLoginError(
    XSTS_REFUSALS[refusal.data.XErr] ?? 'xboxRefused',
    `${what} refused the account with XErr ${refusal.data.XErr}`,
  );
}
