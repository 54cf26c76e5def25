// The browser's API client, wired to the session store and the overlays.
import { createApiClient, type ApiClientOptions } from './api-client';
import { getCookie } from './cookies';
import { loginUrlFor } from './routes';
import { leaveFlash, showFlash } from './flash';
import { $apiOffline, $maintenance, forgetAdminRights, forgetUser } from './session';

/** The API host; empty means the same origin as the site. */
export const API_URL: string = (import.meta.env.PUBLIC_API_URL as string | undefined) ?? '';

/** After a 401: forgets the local user, says why when the API did (a ban: on this page, or on the login page it goes to), and on a page that needs a login, goes to the login page. */
function logOutLocally(reason: string | null): void {
  forgetUser();
  const leaving = document.documentElement.hasAttribute('data-auth');
  if (reason) {
    if (leaving) leaveFlash(reason, 'warning');
    else showFlash({ message: reason, tone: 'warning' });
  }
  if (leaving) location.replace(loginUrlFor(location.pathname + location.search));
}

/** The browser's API host, XSRF cookie and app-wide session effects (401 logs out, 503 maintenance, 408 or no answer offline), shared by the client and file uploads. */
export const API_OPTIONS: ApiClientOptions = {
  baseURL: API_URL,
  readXsrfToken: () => getCookie('XSRF-TOKEN'),
  onUnauthorized: logOutLocally,
  onMaintenance: () => $maintenance.set(true),
  onOffline: () => $apiOffline.set(true),
  onNotAdmin: forgetAdminRights,
};

/** The client every page and island uses for `/api/` calls. */
export const api = createApiClient(API_OPTIONS);
