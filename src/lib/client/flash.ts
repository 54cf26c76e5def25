// A message at the top of the page ("Your account has been deleted.", why the player was logged out): shown on this
// page, or left for the next page the player opens and shown there once. A warning is shown in red.

const FLASH_KEY = 'flash';

/** How a flash message looks: news (green) or a warning (red). */
export type FlashTone = 'news' | 'warning';

/** A flash message and its tone. */
export interface Flash {
  message: string;
  tone: FlashTone;
}

/** Leaves `message` for the next page to show. */
export function leaveFlash(message: string, tone: FlashTone = 'news'): void {
  sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, tone } satisfies Flash));
}

/** The message the previous page left, once (null when there is none). */
export function takeFlash(): Flash | null {
  const stored = sessionStorage.getItem(FLASH_KEY);
  if (stored === null) return null;
  sessionStorage.removeItem(FLASH_KEY);
  try {
    const flash = JSON.parse(stored) as Partial<Flash>;
    if (typeof flash.message === 'string')
      return { message: flash.message, tone: flash.tone === 'warning' ? 'warning' : 'news' };
  } catch {
    // A message left as plain text.
  }
  return { message: stored, tone: 'news' };
}

/** Shows a flash message at the top of this page; false when the page has no place for one. */
export function showFlash(flash: Flash): boolean {
  const element = typeof document === 'undefined' ? null : document.getElementById('flash');
  if (!element) return false;
  element.textContent = flash.message;
  element.dataset.tone = flash.tone;
  element.setAttribute('role', flash.tone === 'warning' ? 'alert' : 'status');
  element.hidden = false;
  return true;
}
