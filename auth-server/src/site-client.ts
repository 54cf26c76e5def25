// The auth server's one call to the site: POST /api/internal/auth with the bearer key, for a player who has just joined.
import type { AuthServerConfig } from './config.ts';

/** A player as the game server knows them: uuid as 32 hex characters without dashes, and name. */
export interface JoiningPlayer {
  uuid: string;
  username: string;
}

/** What the site said about a joining player: their login code, that they are banned, or why no answer could be had. */
export type SiteAnswer = { kind: 'code'; code: string } | { kind: 'banned' } | { kind: 'unavailable'; cause: string };

/** The first characters of a response body, on one line, for a log line. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Asks the site for a player's login code; never throws: a site that cannot be reached or answers wrongly gives "unavailable" with the cause. */
export async function requestLoginCode(
  config: Pick<AuthServerConfig, 'apiUrl' | 'apiKey' | 'apiTimeoutMs'>,
  player: JoiningPlayer,
): Promise<SiteAnswer> {
  const url = `${config.apiUrl}/api/internal/auth`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ uuid: player.uuid, username: player.username }),
      signal: AbortSignal.timeout(config.apiTimeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${config.apiTimeoutMs} ms`
        : describeFetchError(error);
    return { kind: 'unavailable', cause: `POST ${url}: ${reason}` };
  }
  if (response.status === 401) {
    return {
      kind: 'unavailable',
      cause: `POST ${url}: the site refused the key (401); AUTH_API_KEY must match the site's AUTH_API_KEY`,
    };
  }
  if (!response.ok) return { kind: 'unavailable', cause: `POST ${url}: HTTP ${response.status} ${excerpt(text)}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'unavailable', cause: `POST ${url}: the answer is not JSON: ${excerpt(text)}` };
  }
  const answer = body as { success?: unknown; banned?: unknown; code?: unknown };
  if (answer.banned === true) return { kind: 'banned' };
  if (answer.success === true && typeof answer.code === 'string' && /^\d{6}$/.test(answer.code))
    return { kind: 'code', code: answer.code };
  return { kind: 'unavailable', cause: `POST ${url}: unexpected answer ${excerpt(text)}` };
}

/** The useful part of a failed fetch: undici hides the socket error (ECONNREFUSED, ENOTFOUND…) in error.cause. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (cause?.code) return `${error.message} (${cause.code}${cause.message ? `: ${cause.message}` : ''})`;
  return cause?.message ? `${error.message} (${cause.message})` : error.message;
}
