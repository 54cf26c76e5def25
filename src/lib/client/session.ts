// The browser session: the stored user (local storage key `user`) and the app-level overlay flags.
import { atom } from 'nanostores';
import type { User } from '../schemas/types';

/** The local storage key that holds the current user. */
export const USER_STORAGE_KEY = 'user';

function readStoredUser(): User | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = localStorage.getItem(USER_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as User) : null;
    return parsed && typeof parsed.uuid === 'string' && typeof parsed.username === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** The logged-in user, or null for a visitor. */
export const $user = atom<User | null>(readStoredUser());

/** True once an API call answered 503: the maintenance screen shows. */
export const $maintenance = atom(false);

/** True once an API call answered 408 or timed out: the API-offline modal shows. */
export const $apiOffline = atom(false);

/** Stores the user locally (dropping the profile field) and publishes it. */
export function storeUser(user: User): void {
  const { profile: _profile, ...rest } = user as User & { profile?: unknown };
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(rest));
  $user.set(rest);
}

/** Where this tab remembers that its player has just logged in for the first time. */
const FIRST_LOGIN_KEY = 'first-login';

/** Stores the user who has just logged in, remembering for this tab whether it was the account's first login. */
export function storeLogin(user: User, firstLogin: boolean): void {
  storeUser(user);
  if (firstLogin) sessionStorage.setItem(FIRST_LOGIN_KEY, user.uuid);
  else sessionStorage.removeItem(FIRST_LOGIN_KEY);
}

/** Whether the player `uuid` logged in for the first time in this tab (the home page welcomes them, not "back"). */
export function isFirstLogin(uuid: string | undefined): boolean {
  return uuid !== undefined && sessionStorage.getItem(FIRST_LOGIN_KEY) === uuid;
}

/** Forgets the local user (the server session is ended separately). */
export function forgetUser(): void {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(USER_STORAGE_KEY);
  $user.set(null);
}

/**
 * After the API said the user is not an admin: the stored user loses the admin flag, so admin pages show "not allowed".
 */
export function forgetAdminRights(): void {
  const user = $user.get();
  if (user?.group?.admin) storeUser({ ...user, group: { ...user.group, admin: false } });
}
