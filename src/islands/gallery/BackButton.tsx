// The gallery's back button: goes to a given route, or back in history when the previous page was on this site.
import { ArrowLeftIcon } from './icons';

/** Whether going back in history stays on this site. */
function canGoBack(): boolean {
  if (history.length <= 1 || !document.referrer) return false;
  try {
    return new URL(document.referrer).origin === location.origin;
  } catch {
    return false;
  }
}

/** Back: to `to` when given, else back in history, else to `fallback`. */
export function BackButton({ to, fallback = '/', label = 'Back' }: { to?: string; fallback?: string; label?: string }) {
  const go = () => {
    if (to) location.assign(to);
    else if (canGoBack()) history.back();
    else location.assign(fallback);
  };
  return (
    <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={go} data-testid="back-button">
      <ArrowLeftIcon /> {label}
    </button>
  );
}
