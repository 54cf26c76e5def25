// The login page's `error` reasons: the address a login step sends the player back to, and the message the page shows.
import { describe, expect, it } from 'vitest';
import {
  LOGIN_ERRORS,
  loginErrorMessage,
  loginErrorPath,
  MICROSOFT_SIGN_IN_ERROR_MESSAGE,
} from '../../../src/lib/login-errors';

describe('login errors', () => {
  it('builds the login page address with the reason and the path to return to', () => {
    expect(loginErrorPath('microsoft_unavailable')).toBe('/account/login?error=microsoft_unavailable');
    expect(loginErrorPath('microsoft_unavailable', '/gallery?page=2')).toBe(
      '/account/login?error=microsoft_unavailable&ref=%2Fgallery%3Fpage%3D2',
    );
  });

  it('gives the message of a known reason and nothing for an unknown one or an inherited property name', () => {
    expect(loginErrorMessage('microsoft_unavailable')).toBe(LOGIN_ERRORS.microsoft_unavailable);
    expect(loginErrorMessage('<b>you were hacked</b>')).toBeNull();
    expect(loginErrorMessage('toString')).toBeNull();
    expect(loginErrorMessage(null)).toBeNull();
  });

  it("says the player cancelled for Microsoft's access_denied, and gives a general message for its other error codes", () => {
    expect(loginErrorMessage('access_denied')).toBe(LOGIN_ERRORS.access_denied);
    expect(loginErrorMessage('server_error')).toBe(MICROSOFT_SIGN_IN_ERROR_MESSAGE);
    expect(loginErrorMessage('temporarily_unavailable')).toBe(MICROSOFT_SIGN_IN_ERROR_MESSAGE);
    expect(loginErrorMessage('hasOwnProperty')).toBeNull();
  });
});
