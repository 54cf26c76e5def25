// Ad slots (rendered only when an ad client is configured): loads the ad network's script, and shows the ad-blocker
// message when the marker is hidden.
import { site } from '../lib/site';

/** How long after a slot appears the ad-blocker check runs. */
export const AD_CHECK_DELAY_MS = 100;

/** Whether an ad marker was removed or hidden (what ad blockers do). */
export function isAdMarkerBlocked(marker: HTMLElement | null): boolean {
  if (!marker || !marker.isConnected) return true;
  const style = getComputedStyle(marker);
  return style.display === 'none' || style.visibility === 'hidden' || marker.offsetParent === null;
}

/** Checks every ad slot on the page 100 ms after it appears. */
export function startAdSlots(): void {
  const slots = document.querySelectorAll<HTMLElement>('[data-ad-slot]');
  if (slots.length === 0) return;
  const client = slots[0]!.querySelector('ins')?.dataset.adClient;
  if (client) {
    const script = document.createElement('script');
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.src = `${site.adScriptUrl}?client=${encodeURIComponent(client)}`;
    document.head.append(script);
  }
  slots.forEach((slot) => {
    window.setTimeout(() => {
      // A slot the layout hides (side slots on narrow screens) has nothing to check.
      if (slot.offsetParent === null) return;
      if (isAdMarkerBlocked(slot.querySelector<HTMLElement>('ins.adsbygoogle'))) {
        slot.querySelector('.ad-blocked-message')?.classList.remove('hidden');
      } else if (client) {
        ((window as unknown as { adsbygoogle?: unknown[] }).adsbygoogle ??= []).push({});
      }
    }, AD_CHECK_DELAY_MS);
  });
}
