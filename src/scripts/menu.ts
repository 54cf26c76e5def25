// The menu's user variant (avatar, name, profile link, admin entry), its dropdowns, the menu button of narrow screens
// and log out.
import { apiCall } from '../lib/client/api';
import { $user, forgetUser } from '../lib/client/session';
import { avatarUrl } from '../lib/site';
import type { User } from '../lib/schemas/types';

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
  document
    .querySelectorAll<HTMLAnchorElement>('[data-profile-link]')
    .forEach((a) => (a.href = user ? `/user/${user.uuid}` : '/user'));
}

/** Ends the server session, forgets the local user and reloads the page. */
export async function logOut(): Promise<void> {
  try {
    await apiCall('logout');
  } catch {
    // The local user is forgotten whatever the server said.
  }
  forgetUser();
  location.reload();
}

/**
 * The collapsed menu of narrow screens: whether it is open, and opening or closing it (closing also closes its
 * dropdowns).
 */
function collapsedMenu(toggle: HTMLButtonElement, panel: HTMLElement) {
  return {
    isOpen: () => toggle.getAttribute('aria-expanded') === 'true',
    setOpen(open: boolean) {
      toggle.setAttribute('aria-expanded', String(open));
      panel.toggleAttribute('data-open', open);
      if (!open) panel.querySelectorAll('details').forEach((details) => (details.open = false));
    },
  };
}

/** Wires the menu to the session store, the dropdowns and the menu button of narrow screens. */
export function startMenu(): void {
  $user.subscribe(renderUser);
  document.querySelectorAll('[data-logout]').forEach((button) => button.addEventListener('click', () => void logOut()));
  const dropdowns = document.querySelectorAll<HTMLDetailsElement>('details.menu-dropdown');
  const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const panel = document.querySelector<HTMLElement>('[data-menu-panel]');
  const nav = toggle?.closest('nav');
  const menu = toggle && panel ? collapsedMenu(toggle, panel) : null;

  toggle?.addEventListener('click', () => menu?.setOpen(!menu.isOpen()));
  // Tabbing past the last entry closes the collapsed menu.
  nav?.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Node && !nav.contains(event.relatedTarget)) menu?.setOpen(false);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node;
    dropdowns.forEach((details) => {
      if (!details.contains(target)) details.open = false;
    });
    if (nav && !nav.contains(target)) menu?.setOpen(false);
  });
  // Escape closes the open dropdown first (focus back on its summary), then the collapsed menu (focus back on its
  // button).
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = [...dropdowns].find((details) => details.open);
    if (open) {
      open.open = false;
      open.querySelector('summary')?.focus();
    } else if (menu?.isOpen()) {
      menu.setOpen(false);
      toggle?.focus();
    }
  });
}
