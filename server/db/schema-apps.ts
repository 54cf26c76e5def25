// Table types of the apps that sign players in with a code (the OAuth 2.0 device flow): the apps, the sign-ins under
// way, the connections players approved and their tokens.
import type { Generated } from 'kysely';

/** An app registered to sign players in with the device flow (a public client: no secret). */
export interface OAuthClientsTable {
  client_id: string;
  name: string;
  created_at: number;
}

/** A device flow sign-in under way: found by the SHA-256 of its device code or of its normalized user code (0021). */
export interface OAuthDeviceRequestsTable {
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  /** The scopes asked for, space-separated. */
  scope: string;
  created_at: number;
  expires_at: number;
  /** The least time between two polls; raised by 5 s at each poll that came too early. */
  interval_seconds: number;
  /** When the app last polled (null before its first poll). */
  polled_at: number | null;
  /** Null until the player decides. */
  decision: 'approved' | 'denied' | null;
  /** The player who decided. */
  user_uuid: string | null;
  /** When the app took its tokens (null until then): the code is used up. */
  taken_at: number | null;
}

/** An app a player connected, with the scopes they approved (0021). */
export interface OAuthGrantsTable {
  id: Generated<number>;
  client_id: string;
  user_uuid: string;
  /** The approved scopes, space-separated. */
  scope: string;
  created_at: number;
  /** When the app last used one of its tokens (kept to the minute). */
  last_used_at: number;
}

/** An access or refresh token of a grant, kept only as the SHA-256 of the token (0021). */
export interface OAuthTokensTable {
  token_hash: string;
  grant_id: number;
  kind: 'access' | 'refresh';
  /** The scopes the token carries, space-separated. */
  scope: string;
  created_at: number;
  expires_at: number;
  /** When a refresh token was exchanged for new tokens (null while it is the grant's current one). */
  used_at: number | null;
}
