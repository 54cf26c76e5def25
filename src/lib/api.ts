// The browser's API client, wired to the session store and the overlays.
import { createApiClient } from './api-client';
import { getCookie } from './cookies';
import { $apiOffline, $maintenance, forgetUser } from './session';

/** The API host; empty means the same origin as the site. */
export const API_URL: string = (import.meta.env.PUBLIC_API_URL as string | undefined) ?? '';

/** The client every page and island uses for `/api/` calls. */
export const api = createApiClient({
  baseURL: API_URL,
  readXsrfToken: () => getCookie('XSRF-TOKEN'),
  onUnauthorized: forgetUser,
  onMaintenance: () => $maintenance.set(true),
  onOffline: () => $apiOffline.set(true),
});
