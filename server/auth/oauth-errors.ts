// The error answers of the OAuth endpoints (RFC 6749 section 5.2, RFC 8628 section 3.5): the code a library acts on,
// a sentence a person reads, and the status.

/** The error codes the OAuth endpoints answer with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

/**
 * A refusal of an OAuth endpoint: 401 for an unknown client, 400 for the rest (a status of its own where given, such
 * as 429).
 */
export class OAuthError extends Error {
  readonly status: number;

  constructor(
    readonly code: OAuthErrorCode,
    description: string,
    status?: number,
  ) {
    super(description);
    this.status = status ?? (code === 'invalid_client' ? 401 : 400);
  }

  /** The JSON body: the code and the sentence. */
  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}
