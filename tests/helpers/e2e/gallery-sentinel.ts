// Watches the gallery's infinite-scroll sentinel from inside the page: what the IntersectionObservers watching it were
// told, and how many watch it now, so a test can tell that no next page will be asked for without waiting a fixed time.
import type { Page } from '@playwright/test';

/** What the page records about the sentinel (`data-testid="gallery-sentinel"`). */
interface SentinelWatch {
  /** Whether the sentinel was near the screen, for each observation delivered to the page, in order. */
  checks: boolean[];
  /** How many observers watch the sentinel now. */
  watchers: number;
}

/** Records every observation of the gallery sentinel from the page's first script on; call before `page.goto`. */
export async function watchGallerySentinel(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const watch: SentinelWatch = { checks: [], watchers: 0 };
    (window as unknown as { gallerySentinel: SentinelWatch }).gallerySentinel = watch;
    const isSentinel = (target: Element) =>
      target instanceof HTMLElement && target.dataset.testid === 'gallery-sentinel';
    const NativeObserver = window.IntersectionObserver;
    window.IntersectionObserver = class extends NativeObserver {
      readonly watched = new Set<Element>();
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        super((entries, observer) => {
          for (const entry of entries) if (isSentinel(entry.target)) watch.checks.push(entry.isIntersecting);
          callback(entries, observer);
        }, options);
      }
      override observe(target: Element): void {
        if (isSentinel(target) && !this.watched.has(target)) {
          this.watched.add(target);
          watch.watchers += 1;
        }
        super.observe(target);
      }
      override unobserve(target: Element): void {
        if (this.watched.delete(target)) watch.watchers -= 1;
        super.unobserve(target);
      }
      override disconnect(): void {
        watch.watchers -= this.watched.size;
        this.watched.clear();
        super.disconnect();
      }
    };
  });
}

/** What the page recorded about the sentinel so far. */
export function gallerySentinel(page: Page): Promise<SentinelWatch> {
  return page.evaluate(() => ({ ...(window as unknown as { gallerySentinel: SentinelWatch }).gallerySentinel }));
}
