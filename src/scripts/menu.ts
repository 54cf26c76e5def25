// The menu's user variant: avatar, name, profile link, admin entry, dropdowns and log out.
import { api } from '../lib/api';
import { $user, forgetUser } from '../lib/session';
import { avatarUrl } from '../lib/site';
import type { User } from '../lib/types';

function renderUser(user: User | null): void {
  const root = document.documentElement;
  root.dataset.session = user ? 'user' : 'visitor';
  if (user?.group?.admin) root.dataset.admin = '';
  else delete root.dataset.admin;
  const template = document.getElementById('avatar-url-template')?.dataset.template ?? '';
  document.querySelectorAll<HTMLImageElement>('[data-user-avatar]').forEach((img) => {
    if (user) {
      // The profile-image service may be unreachable: fall back to the site icon rather than a broken image.
      img.addEventListener('error', () => (img.src = '/favicon.svg'), { once: true });
      img.src = avatarUrl(template, user.uuid, 24);
      img.alt = `${user.username}'s avatar`;
    } else img.removeAttribute('src');
  });
  document.querySelectorAll('[data-user-name]').forEach((el) => (el.textContent = user?.username ?? ''));
  document.querySelectorAll('[data-user-group-emoji]').forEach((el) => (el.textContent = user?.group?.emoji ?? ''));
  document.querySelectorAll<HTMLAnchorElement>('[data-profile-link]').forEach((a) => (a.href = user ? `/user/${user.uuid}` : '/user'));
}

/** Ends the server session, forgets the local user and reloads the page. */
export async function logOut(): Promise<void> {
  try {
    await api('/api/account/logout', { method: 'POST' });
  } catch {
    // The local user is forgotten whatever the server said.
  }
  forgetUser();
  location.reload();
}

/** Wires the menu to the session store. */
export function startMenu(): void {
  $user.subscribe(renderUser);
  document.querySelectorAll('[data-logout]').forEach((button) => button.addEventListener('click', () => void logOut()));
  const dropdowns = document.querySelectorAll<HTMLDetailsElement>('details.menu-dropdown');
  document.addEventListener('click', (event) => {
    dropdowns.forEach((details) => {
      if (!details.contains(event.target as Node)) details.open = false;
    });
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    dropdowns.forEach((details) => {
      if (details.open) {
        details.open = false;
        details.querySelector('summary')?.focus();
      }
    });
  });
}
