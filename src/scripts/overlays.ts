// The app-level overlays: maintenance screen, API-offline modal, the daily server advert, copy-on-click.
import { getCookie, setCookie } from '../lib/client/cookies';
import { $apiOffline, $maintenance } from '../lib/client/session';

/** How long the maintenance screen waits before reloading. */
export const MAINTENANCE_RELOAD_MS = 10_000;
/** The cookie that remembers the server advert was shown today. */
export const SERVER_ADVERT_COOKIE = 'server_advert';

function startMaintenanceScreen(): void {
  const screen = document.getElementById('maintenance-screen');
  let timer: number | undefined;
  $maintenance.subscribe((on) => {
    if (!screen || !on) return;
    screen.hidden = false;
    document.body.style.overflow = 'hidden';
    timer ??= window.setTimeout(() => location.reload(), MAINTENANCE_RELOAD_MS);
  });
}

function startApiOfflineModal(): void {
  const modal = document.getElementById('api-offline-modal') as HTMLDialogElement | null;
  $apiOffline.subscribe((offline) => {
    if (modal && offline && !modal.open && !$maintenance.get()) modal.showModal();
  });
  modal?.addEventListener('close', () => $apiOffline.set(false));
  modal?.querySelector('[data-reload]')?.addEventListener('click', () => location.reload());
}

/** The login pages, where a player holding a code must not meet the advert first (it waits for the next page). */
const ADVERT_FREE_PATH = /^\/account\/login(\/|$)/;
/** Where the session keeps the page this tab's visit started on. */
const LANDING_PAGE_KEY = 'landing_page';

/** The page this tab's visit started on (this page, when it is the first). */
function landingPage(): string {
  try {
    const landing = sessionStorage.getItem(LANDING_PAGE_KEY);
    if (landing !== null) return landing;
    sessionStorage.setItem(LANDING_PAGE_KEY, location.pathname);
  } catch {
    // Without session storage every page counts as the first, so the advert waits for the home page.
  }
  return location.pathname;
}

/** The advert never covers the page a visitor came for: it shows on the home page, or on a page they went on to. */
function advertMayShow(): boolean {
  const landing = landingPage();
  if (ADVERT_FREE_PATH.test(location.pathname)) return false;
  return location.pathname === '/' || location.pathname !== landing;
}

function startServerAdvert(): void {
  const modal = document.getElementById('server-advert-modal') as HTMLDialogElement | null;
  if (!modal || getCookie(SERVER_ADVERT_COOKIE) || !advertMayShow()) return;
  setCookie(SERVER_ADVERT_COOKIE, '1', { expires: 86400 });
  modal.showModal();
}

/**
 * Puts text on the clipboard; a page over plain http (a site on a home network) has no Clipboard API, so it falls back
 * to the copy command.
 */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard) return navigator.clipboard.writeText(text);
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  focused?.focus();
  if (!copied) throw new Error('The browser refused to copy');
}

function startCopyButtons(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>('[data-copy]');
    if (!button) return;
    const status = button.parentElement?.querySelector('[data-copy-status]');
    copyText(button.dataset.copy ?? '').then(
      () => status && (status.textContent = 'Copied to your clipboard!'),
      () => status && (status.textContent = 'Select the text and copy it by hand.'),
    );
  });
}

/** Starts every app-level overlay. */
export function startOverlays(): void {
  startMaintenanceScreen();
  startApiOfflineModal();
  startServerAdvert();
  startCopyButtons();
}
