// The confirmation steps a card and the texture page share: report (a reason, the terms box and a note), delete (a
// moderator's Delete of someone else's item with its reason and how many players lose it) and the marked-safe notice.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { FetchError } from 'ofetch';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { BAN_REASONS } from '../../lib/ban-reasons';
import { fetchWearerCount, type GalleryItem } from './gallery-api';
import { ShieldIcon } from './icons';
import { countOf, plural } from '../../lib/plural';
import type { ReportGrounds } from '../../lib/report-rules';
import { ReasonSelect } from '../admin/ReasonSelect';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ReportGroundsFields, useReportGrounds } from '../shared/ReportGroundsFields';

/** Cancels a confirmation step on Escape (and keeps the key from closing anything around it). */
function onEscape(cancel: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      cancel();
    }
  };
}

/** A confirmation step's frame: a heading, text and the buttons. */
function ConfirmPanel({
  title,
  children,
  testId,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  testId: string;
  onCancel: () => void;
}) {
  const titleId = useId();
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      data-testid={testId}
      onKeyDown={onEscape(onCancel)}
      className="flex flex-col gap-2.5"
    >
      <p id={titleId} className="font-bold break-words text-ink-100">
        {title}
      </p>
      {children}
    </div>
  );
}

/**
 * Delete confirm: the item goes for good. The author's own item goes without a reason; a moderator deleting someone
 * else's item (`forReason`) chooses a reason and is told how many players wear it.
 */
export function DeleteConfirm({
  item,
  forReason = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  item: GalleryItem;
  /** A moderator deletes someone else's item: a reason is needed, and the picture leaves every player wearing it. */
  forReason?: boolean;
  busy?: boolean;
  /** Deletes with the moderator's reason key (null for the author); a rejection is shown in the step. */
  onConfirm: (reason: string | null) => void | Promise<void>;
  onCancel: () => void;
}) {
  if (forReason) return <RemovalConfirm item={item} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />;
  return (
    <ConfirmPanel title={`Delete “${item.title}”?`} testId="delete-confirm" onCancel={onCancel}>
      <p className="text-sm leading-snug text-ink-300">It leaves the gallery for everyone. This can't be undone.</p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-danger flex-1 px-2 py-1.5 text-sm"
          onClick={() => void onConfirm(null)}
          disabled={busy}
        >
          {busy ? 'Deleting…' : 'Delete'}
        </button>
        <button
          type="button"
          className="btn-secondary flex-1 px-2 py-1.5 text-sm"
          onClick={onCancel}
          disabled={busy}
          autoFocus
        >
          Cancel
        </button>
      </div>
    </ConfirmPanel>
  );
}

/** How many players wear an item's picture now: on its way, counted, or not counted (the call failed). */
type WearerCount = { status: 'loading' } | { status: 'ready'; count: number } | { status: 'failed' };

/** Fetches how many players wear the item's picture now, once when called and again on `retry`. */
function useWearerCount(hash: string): { wearers: WearerCount; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [wearers, setWearers] = useState<WearerCount>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchWearerCount(hash, controller.signal).then(
      (count) => setWearers({ status: 'ready', count }),
      () => {
        if (!controller.signal.aborted) setWearers({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [hash, attempt]);
  const retry = () => {
    setWearers({ status: 'loading' });
    setAttempt((previous) => previous + 1);
  };
  return { wearers, retry };
}

/** What the step says of the players wearing the picture: "No player wears it now.", "3 players wear it now and …". */
function wearersSentence(count: number): string {
  if (count === 0) return 'No player wears it now.';
  return `${countOf(count, 'player')} ${plural(count, 'wears', 'wear')} it now and will lose it.`;
}

/** The server's message for the reason field when it refused the call with 422 (no reason, or not one of the list). */
function reasonRefusal(failure: unknown): string | null {
  if (!(failure instanceof FetchError) || failure.response?.status !== 422) return null;
  const errors = (errorBody(failure) as { errors?: { reason?: unknown } } | undefined)?.errors;
  const messages = errors?.reason;
  return Array.isArray(messages) && typeof messages[0] === 'string' ? messages[0] : null;
}

/**
 * A moderator's Delete of someone else's item, as Remove in the report queue: a reason from the list, how many
 * players wear the picture (fetched as the step opens), then Delete; a 422 is said by the reason, other refusals below.
 */
function RemovalConfirm({
  item,
  busy,
  onConfirm,
  onCancel,
}: {
  item: GalleryItem;
  busy: boolean;
  onConfirm: (reason: string) => void | Promise<void>;
  onCancel: () => void;
}) {
  const { wearers, retry } = useWearerCount(item.hash);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const reasonField = useRef<HTMLSelectElement>(null);
  const working = busy || sending;

  const choose = (key: string) => {
    setReason(key);
    setReasonError(null);
  };
  const countAgain = () => {
    retry();
    // Try again goes away while the count loads: the focus stays in the step, on the reason.
    reasonField.current?.focus();
  };
  const confirm = async () => {
    if (working) return;
    setSending(true);
    setReasonError(null);
    setError(null);
    try {
      await onConfirm(reason);
    } catch (failure) {
      const refusal = reasonRefusal(failure);
      if (refusal) {
        setReasonError(refusal);
        reasonField.current?.focus();
      } else setError(describeApiError(errorBody(failure)));
      setSending(false);
    }
  };

  return (
    <ConfirmPanel title={`Delete “${item.title}”?`} testId="delete-confirm" onCancel={onCancel}>
      <p className="text-sm leading-snug text-ink-300">
        It leaves the gallery and every wardrobe, and can't be uploaded again.
      </p>
      {wearers.status === 'failed' ? (
        <p className="text-sm leading-snug text-amber-200" data-testid="wearer-count-error">
          We couldn't count the players who wear it.{' '}
          <button type="button" className="font-semibold underline" onClick={countAgain}>
            Try again
          </button>
        </p>
      ) : (
        <p role="status" className="text-sm leading-snug font-semibold text-ink-100" data-testid="wearer-count">
          {wearers.status === 'loading' ? 'Counting the players who wear it…' : wearersSentence(wearers.count)}
        </p>
      )}
      <ReasonSelect
        ref={reasonField}
        reasons={BAN_REASONS}
        value={reason}
        onChange={choose}
        error={reasonError}
        compact
        autoFocus
      />
      {error && (
        <div className="[&>div]:mt-0 [&>div]:px-2 [&>div]:py-1.5">
          <ErrorDisplay error={error} />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-danger flex-1 px-2 py-1.5 text-sm"
          onClick={() => void confirm()}
          // Not disabled while it sends, which would drop the focus out of the step.
          aria-disabled={working}
          disabled={!reason || wearers.status !== 'ready'}
        >
          {working ? 'Deleting…' : 'Delete'}
        </button>
        <button
          type="button"
          className="btn-secondary flex-1 px-2 py-1.5 text-sm"
          onClick={onCancel}
          disabled={working}
        >
          Cancel
        </button>
      </div>
    </ConfirmPanel>
  );
}

/** Report confirm: a reason must be chosen and the terms box (tac) ticked before Report; a note is optional. */
export function ReportConfirm({
  item,
  busy = false,
  onConfirm,
  onCancel,
}: {
  item: GalleryItem;
  busy?: boolean;
  onConfirm: (grounds: ReportGrounds) => void;
  onCancel: () => void;
}) {
  const [tac, setTac] = useState(false);
  const grounds = useReportGrounds();
  return (
    <ConfirmPanel title={`Report “${item.title}”?`} testId="report-confirm" onCancel={onCancel}>
      <ReportGroundsFields state={grounds} compact autoFocus />
      <label className="flex items-start gap-2 text-sm leading-snug text-ink-300">
        <input
          type="checkbox"
          name="tac"
          className="mt-0.5 h-4 w-4 shrink-0 accent-red-600"
          checked={tac}
          onChange={(event) => setTac(event.target.checked)}
        />
        <span>
          It breaks the{' '}
          <a href="/legal/rules" target="_blank" rel="noopener">
            rules
          </a>
          , and I accept the{' '}
          <a href="/legal/terms" target="_blank" rel="noopener">
            terms
          </a>
          .
        </span>
      </label>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-danger flex-1 px-2 py-1.5 text-sm"
          onClick={() => grounds.grounds && onConfirm(grounds.grounds)}
          disabled={!tac || !grounds.grounds || busy}
        >
          {busy ? 'Reporting…' : 'Report'}
        </button>
        <button type="button" className="btn-secondary flex-1 px-2 py-1.5 text-sm" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </ConfirmPanel>
  );
}

/** report_whitelisted: staff marked the texture safe, so it cannot be reported. */
export function WhitelistedNotice({ onBack }: { onBack: () => void }) {
  return (
    <ConfirmPanel title="This texture was marked safe by staff" testId="report-whitelisted" onCancel={onBack}>
      <p className="flex items-start gap-2 text-sm text-ink-300">
        <ShieldIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-300" />
        Staff already checked it against the rules, so it can't be reported.
      </p>
      <button type="button" className="btn-secondary py-1.5 text-sm" onClick={onBack} autoFocus>
        OK
      </button>
    </ConfirmPanel>
  );
}
