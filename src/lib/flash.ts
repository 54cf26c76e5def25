// A message for the next page the player opens ("Your account has been deleted."), shown once at the top of that page.

const FLASH_KEY = 'flash';

/** Leaves `message` for the next page to show. */
export function leaveFlash(message: string): void {
  sessionStorage.setItem(FLASH_KEY, message);
}

/** The message the previous page left, once (null when there is none). */
export function takeFlash(): string | null {
  const message = sessionStorage.getItem(FLASH_KEY);
  if (message !== null) sessionStorage.removeItem(FLASH_KEY);
  return message;
}
