// A local stand-in for the Microsoft login's four services, speaking their protocols on one port:
// the Microsoft identity platform under `/consumers/oauth2/v2.0/` (an authorize page whose form stands in for the
// sign-in, and the token endpoint, which checks the client, the redirect URI, the one-time code and the PKCE verifier);
// Xbox Live user authentication (`POST /user/authenticate`, RpsTicket `d=<access token>`); XSTS (`POST
// /xsts/authorize`, with the XErr refusals for no Xbox profile and a child outside a family); and the game services
// (`POST /authentication/login_with_xbox`, `GET /minecraft/profile`, 404 for an account without the game).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileAnswerLog, sendHostileAnswer, type HostileAnswer, type HostileAnswerLog } from './hostile-answers.ts';
import { requestBody } from './request-body.ts';

/** What a test account is, as the sign-in form offers it. */
export type StandInAccountKind = 'player' | 'noXbox' | 'child' | 'noGame';

/** The account kinds and their labels on the sign-in form. */
export const STAND_IN_ACCOUNT_KINDS: Record<StandInAccountKind, string> = {
  player: 'Owns the game',
  noXbox: 'No Xbox profile (XErr 2148916233)',
  child: 'Child outside a family (XErr 2148916238)',
  noGame: 'Does not own the game',
};

/** The XSTS refusals the stand-in gives, by account kind. */
const XSTS_REFUSALS: Partial<Record<StandInAccountKind, { XErr: number; Redirect: string }>> = {
  noXbox: { XErr: 2148916233, Redirect: 'https://start.ui.xboxlive.com/CreateAccount' },
  child: { XErr: 2148916238, Redirect: 'https://start.ui.xboxlive.com/AddChildToFamily' },
};

/** A part of the chain that can be made to fail. */
export type StandInService = 'token' | 'xbl' | 'xsts' | 'game';

/** A signed-in test account: its Microsoft account name, player name and kind. */
interface Account {
  account: string;
  player: string;
  kind: StandInAccountKind;
}

/** A running stand-in. */
export interface MicrosoftStandIn {
  /** The base URL: XBL_AUTH_URL, XSTS_AUTH_URL and MINECRAFT_SERVICES_URL all point here. */
  url: string;
  /** MICROSOFT_AUTHORITY_URL: `<url>/consumers`. */
  authorityUrl: string;
  /** The server settings that point the Microsoft login here (client id and secret included). */
  env: Record<string, string>;
  /** Every request as `METHOD /path`, in order. */
  requests: string[];
  /**
   * Makes one service answer this status, drop the connection ('reset') or give a hostile answer; null answers normally
   * again.
   */
  failWith(service: StandInService, failure: number | 'reset' | HostileAnswer | null): void;
  /** What the hostile answers sent so far. */
  hostile: HostileAnswerLog;
  close(): Promise<void>;
}

/** The player uuid the stand-in gives a Microsoft account name (the same every time: a returning player). */
export function standInPlayerUuid(account: string): string {
  const bytes = createHash('sha256').update(`stand-in player:${account.toLowerCase()}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}

/** The Xbox user hash of an account name. */
function userHash(account: string): string {
  return BigInt(
    `0x${createHash('sha256').update(`uhs:${account.toLowerCase()}`).digest('hex').slice(0, 15)}`,
  ).toString();
}

/** A random token with a recognisable start. */
function token(prefix: string): string {
  return `${prefix}.${randomBytes(24).toString('base64url')}`;
}

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The S256 PKCE challenge of a verifier. */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Starts the stand-in on 127.0.0.1 (port 0 picks a free one) for one app registration. */
export async function startMicrosoftStandIn(options: {
  clientId: string;
  clientSecret?: string;
  port?: number;
}): Promise<MicrosoftStandIn> {
  const codes = new Map<
    string,
    { account: Account; redirectUri: string; challenge: string; expiresAt: number; used: boolean }
  >();
  const accessTokens = new Map<string, Account>();
  const xblTokens = new Map<string, Account>();
  const xstsTokens = new Map<string, Account>();
  const gameTokens = new Map<string, Account>();
  const failures = new Map<StandInService, number | 'reset' | HostileAnswer>();
  const hostileLog = hostileAnswerLog();
  const requests: string[] = [];

  const json = (response: http.ServerResponse, status: number, body?: unknown) => {
    response.writeHead(
      status,
      body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    );
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const page = (response: http.ServerResponse, status: number, title: string, body: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`,
    );
  };
  /** Answers with the service's injected failure, if it has one; true when it did. */
  const failed = (service: StandInService, request: http.IncomingMessage, response: http.ServerResponse): boolean => {
    const failure = failures.get(service);
    if (failure === undefined) return false;
    if (failure === 'reset') request.socket.destroy();
    else if (failure === 'endless' || failure === 'stall')
      sendHostileAnswer(response, failure, 'application/json', hostileLog);
    else json(response, failure, { error: 'stand-in failure' });
    return true;
  };
  const readJson = async (request: http.IncomingMessage): Promise<Record<string, unknown> | null> => {
    try {
      return JSON.parse(await requestBody(request)) as Record<string, unknown>;
    } catch {
      return null;
    }
  };

  /**
   * The authorization request's problem (a sign-in page would show an error), or null when it is one this app may make.
   */
  const authorizeProblem = (query: URLSearchParams): string | null => {
    if (query.get('client_id') !== options.clientId) return `unknown client_id ${query.get('client_id')}`;
    if (query.get('response_type') !== 'code') return 'response_type must be code';
    if (!/^https?:\/\//.test(query.get('redirect_uri') ?? '')) return 'redirect_uri missing';
    if (!(query.get('scope') ?? '').split(' ').includes('XboxLive.signin')) return 'scope must include XboxLive.signin';
    if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(query.get('code_challenge') ?? ''))
      return 'a PKCE S256 challenge is required';
    if (!query.get('state')) return 'state missing';
    return null;
  };

  /**
   * GET: the sign-in page, a form that stands in for Microsoft's. POST: signs in (or cancels) and sends the browser
   * back.
   */
  const authorize = async (request: http.IncomingMessage, response: http.ServerResponse, query: URLSearchParams) => {
    const fields = request.method === 'POST' ? new URLSearchParams(await requestBody(request)) : query;
    const problem = authorizeProblem(fields);
    if (problem) return page(response, 400, 'Sign-in error', `<h1>Sign-in error</h1><p>${escapeHtml(problem)}</p>`);
    const back = new URL(fields.get('redirect_uri')!);
    if (request.method === 'GET') {
      const hidden = [...fields]
        .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
        .join('');
      const kinds = Object.entries(STAND_IN_ACCOUNT_KINDS)
        .map(([kind, label]) => `<option value="${kind}">${escapeHtml(label)}</option>`)
        .join('');
      return page(
        response,
        200,
        'Sign in to your account',
        `<h1>Sign in</h1><form method="post">${hidden}` +
          `<label>Email <input name="account" type="email" required></label>` +
          `<label>Player name <input name="player"></label>` +
          `<label>Account <select name="kind">${kinds}</select></label>` +
          `<button name="action" value="allow">Sign in</button><button name="action" value="cancel" formnovalidate>Cancel</button></form>`,
      );
    }
    if (fields.get('action') === 'cancel') {
      back.search = new URLSearchParams({
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to consent to access the app.',
        state: fields.get('state')!,
      }).toString();
      return response.writeHead(302, { location: back.href }).end();
    }
    const account = (fields.get('account') ?? '').trim();
    const kind = (fields.get('kind') ?? 'player') as StandInAccountKind;
    if (!account || !Object.hasOwn(STAND_IN_ACCOUNT_KINDS, kind))
      return page(response, 400, 'Sign-in error', '<p>Enter an email address.</p>');
    const player =
      (fields.get('player') ?? '').trim() ||
      account
        .split('@')[0]!
        .replace(/[^A-Za-z0-9_]/g, '')
        .slice(0, 16);
    const code = `M.C5${randomBytes(4).toString('hex')}_BAY.2.U.${randomBytes(24).toString('base64url')}`;
    codes.set(code, {
      account: { account, player, kind },
      redirectUri: fields.get('redirect_uri')!,
      challenge: fields.get('code_challenge')!,
      expiresAt: Date.now() + 5 * 60_000,
      used: false,
    });
    back.search = new URLSearchParams({ code, state: fields.get('state')! }).toString();
    response.writeHead(302, { location: back.href }).end();
  };

  /**
   * The token endpoint: client_secret_post or client_secret_basic, one-time codes, the same redirect_uri, and the
   * verifier of the challenge.
   */
  const tokenEndpoint = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const form = new URLSearchParams(await requestBody(request));
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    const [basicId, basicSecret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [];
    const clientId = basicId ?? form.get('client_id');
    const clientSecret = basicSecret ?? form.get('client_secret');
    const refuse = (status: number, error: string, description: string) =>
      json(response, status, { error, error_description: description });
    if (form.get('grant_type') !== 'authorization_code')
      return refuse(400, 'unsupported_grant_type', 'AADSTS70003: unsupported grant type');
    if (clientId !== options.clientId)
      return refuse(400, 'unauthorized_client', `AADSTS700016: Application ${clientId} was not found`);
    if (options.clientSecret !== undefined && clientSecret !== options.clientSecret)
      return refuse(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided');
    const grant = codes.get(form.get('code') ?? '');
    if (!grant || grant.expiresAt <= Date.now())
      return refuse(400, 'invalid_grant', 'AADSTS70000: The provided authorization code is invalid or has expired');
    if (grant.used) return refuse(400, 'invalid_grant', 'AADSTS54005: OAuth2 Authorization code was already redeemed');
    grant.used = true;
    if (form.get('redirect_uri') !== grant.redirectUri)
      return refuse(400, 'invalid_grant', 'AADSTS70000: redirect_uri does not match the authorization request');
    if (s256(form.get('code_verifier') ?? '') !== grant.challenge)
      return refuse(400, 'invalid_grant', 'AADSTS501481: The Code_Verifier does not match the code_challenge');
    const accessToken = token('EwB');
    accessTokens.set(accessToken, grant.account);
    json(response, 200, {
      token_type: 'Bearer',
      scope: 'XboxLive.signin XboxLive.offline_access',
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: accessToken,
      refresh_token: token('M.C5_BAY.0.U.-refresh'),
    });
  };

  /** An Xbox token answer for an account. */
  const xboxToken = (tokens: Map<string, Account>, prefix: string, account: Account) => {
    const issued = token(prefix);
    tokens.set(issued, account);
    const now = new Date();
    return {
      IssueInstant: now.toISOString(),
      NotAfter: new Date(now.getTime() + 16 * 3600_000).toISOString(),
      Token: issued,
      DisplayClaims: { xui: [{ uhs: userHash(account.account) }] },
    };
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(`${request.method} ${url.pathname}`);
    if (url.pathname === '/') return page(response, 200, 'Microsoft stand-in', '<p>Microsoft stand-in</p>');
    if (
      url.pathname === '/consumers/oauth2/v2.0/authorize' &&
      (request.method === 'GET' || request.method === 'POST')
    ) {
      return authorize(request, response, url.searchParams);
    }
    if (url.pathname === '/consumers/oauth2/v2.0/token' && request.method === 'POST') {
      if (failed('token', request, response)) return;
      return tokenEndpoint(request, response);
    }
    if (url.pathname === '/user/authenticate' && request.method === 'POST') {
      if (failed('xbl', request, response)) return;
      const body = await readJson(request);
      const properties = (body?.Properties ?? {}) as Record<string, unknown>;
      if (
        body?.RelyingParty !== 'http://auth.xboxlive.com' ||
        body.TokenType !== 'JWT' ||
        properties.AuthMethod !== 'RPS' ||
        properties.SiteName !== 'user.auth.xboxlive.com'
      ) {
        return json(response, 400);
      }
      const ticket = typeof properties.RpsTicket === 'string' ? properties.RpsTicket : '';
      const account = ticket.startsWith('d=') ? accessTokens.get(ticket.slice(2)) : undefined;
      if (!account) return json(response, 401);
      return json(response, 200, xboxToken(xblTokens, 'xbl', account));
    }
    if (url.pathname === '/xsts/authorize' && request.method === 'POST') {
      if (failed('xsts', request, response)) return;
      const body = await readJson(request);
      const properties = (body?.Properties ?? {}) as Record<string, unknown>;
      const userTokens = Array.isArray(properties.UserTokens) ? (properties.UserTokens as unknown[]) : [];
      if (
        body?.RelyingParty !== 'rp://api.minecraftservices.com/' ||
        body.TokenType !== 'JWT' ||
        properties.SandboxId !== 'RETAIL'
      )
        return json(response, 400);
      const account = typeof userTokens[0] === 'string' ? xblTokens.get(userTokens[0]) : undefined;
      if (!account) return json(response, 401);
      const refusal = XSTS_REFUSALS[account.kind];
      if (refusal)
        return json(response, 401, { Identity: '0', XErr: refusal.XErr, Message: '', Redirect: refusal.Redirect });
      return json(response, 200, xboxToken(xstsTokens, 'xsts', account));
    }
    if (url.pathname === '/authentication/login_with_xbox' && request.method === 'POST') {
      if (failed('game', request, response)) return;
      const body = await readJson(request);
      const match = /^XBL3\.0 x=([^;]+);(.+)$/.exec(typeof body?.identityToken === 'string' ? body.identityToken : '');
      const account = match ? xstsTokens.get(match[2]!) : undefined;
      if (!account || match![1] !== userHash(account.account)) {
        return json(response, 401, { path: '/authentication/login_with_xbox', errorMessage: 'Invalid identity token' });
      }
      const issued = token('eyJraWQ');
      gameTokens.set(issued, account);
      return json(response, 200, {
        username: randomUUID(),
        roles: [],
        access_token: issued,
        token_type: 'Bearer',
        expires_in: 86400,
      });
    }
    if (url.pathname === '/minecraft/profile' && request.method === 'GET') {
      if (failed('game', request, response)) return;
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
      const account = bearer ? gameTokens.get(bearer[1]!) : undefined;
      if (!account)
        return json(response, 401, { path: '/minecraft/profile', errorType: 'UNAUTHORIZED', error: 'UNAUTHORIZED' });
      if (account.kind === 'noGame') {
        return json(response, 404, {
          path: '/minecraft/profile',
          errorType: 'NOT_FOUND',
          error: 'NOT_FOUND',
          errorMessage: 'The server has not found anything matching the request URI',
          developerMessage: 'The server has not found anything matching the request URI',
        });
      }
      return json(response, 200, {
        id: standInPlayerUuid(account.account),
        name: account.player,
        skins: [],
        capes: [],
      });
    }
    json(response, 404, { error: 'unknown path' });
  };

  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    authorityUrl: `${url}/consumers`,
    env: {
      MICROSOFT_CLIENT_ID: options.clientId,
      ...(options.clientSecret === undefined ? {} : { MICROSOFT_CLIENT_SECRET: options.clientSecret }),
      MICROSOFT_AUTHORITY_URL: `${url}/consumers`,
      XBL_AUTH_URL: url,
      XSTS_AUTH_URL: url,
      MINECRAFT_SERVICES_URL: url,
    },
    requests,
    failWith: (service, failure) => void (failure === null ? failures.delete(service) : failures.set(service, failure)),
    hostile: hostileLog,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
