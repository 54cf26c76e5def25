// The controls a card and the texture page share: like, download, the report and delete confirmation steps (a
// moderator's Delete of someone else's item with its reason and how many players lose it) and the marked-safe notice.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { FetchError } from 'ofetch';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { BAN_REASONS } from '../../lib/ban-reasons';
import { downloadUrl, fetchWearerCount, kindLabel, wearingLabel, wearLabel, type GalleryItem } from './gallery-api';
import { CapeIcon, CheckIcon, DownloadIcon, HeartIcon, ShieldIcon } from './icons';
import { countOf, formatCount, plural } from '../../lib/plural';
import type { ReportGrounds } from '../../lib/report-rules';
import type { WearNotice } from './useItemActions';
import { ReasonSelect } from '../admin/ReasonSelect';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ReportGroundsFields, useReportGrounds } from '../shared/ReportGroundsFields';
import { routeByName } from '../../lib/routes';

/**
 * What an action says with its count: on the texture page (`large`) its label and "(3 likes)", on a card only the
 * number, with its noun for screen readers.
 */
function ActionCount({
  label,
  count,
  noun,
  testId,
  large,
}: {
  label: string;
  count: number;
  noun: string;
  testId: string;
  large: boolean;
}) {
  return large ? (
    <>
      {label}{' '}
      <span className="font-normal opacity-80">
        (<span data-testid={testId}>{formatCount(count)}</span> {plural(count, noun)})
      </span>
    </>
  ) : (
    <>
      <span data-testid={testId}>{formatCount(count)}</span>
      <span className="sr-only">{plural(count, noun)}</span>
    </>
  );
}

/** The like toggle with the like count (pressed when the viewer likes the item). */
export function LikeButton({
  item,
  onToggle,
  large = false,
}: {
  item: GalleryItem;
  onToggle: () => void;
  large?: boolean;
}) {
  const liked = item.user_liked;
  const colours = liked
    ? 'bg-pink-500/15 text-pink-300 hover:bg-pink-500/25 hover:text-pink-200'
    : large
      ? 'bg-ink-700 text-ink-100 hover:bg-ink-600'
      : 'text-ink-300 hover:bg-ink-700 hover:text-ink-100';
  return (
    <button
      type="button"
      data-testid="like-button"
      aria-pressed={liked}
      title={liked ? 'Unlike' : 'Like'}
      onClick={onToggle}
      className={`inline-flex items-center gap-1.5 rounded-lg font-semibold transition-colors ${large ? 'px-4 py-2' : 'px-2 py-1 text-sm'} ${colours}`}
    >
      <HeartIcon filled={liked} className={large ? 'h-5 w-5' : 'h-4 w-4'} />
      <ActionCount
        label={liked ? 'Liked' : 'Like'}
        count={item.total_user_likes}
        noun="like"
        testId="like-count"
        large={large}
      />
    </button>
  );
}

/** The download link with the download count; a click counts one more at once. */
export function DownloadLink({
  item,
  onDownload,
  large = false,
}: {
  item: GalleryItem;
  onDownload: () => void;
  large?: boolean;
}) {
  return (
    <a
      href={downloadUrl(item.hash)}
      download
      data-testid="download-link"
      title={`Download ${item.animated ? 'the GIF' : 'the PNG'}`}
      onClick={onDownload}
      className={`inline-flex items-center gap-1.5 rounded-lg font-semibold no-underline transition-colors ${
        large ? 'btn-secondary' : 'px-2 py-1 text-sm text-ink-300 hover:bg-ink-700 hover:text-ink-100'
      }`}
    >
      <DownloadIcon className={large ? 'h-5 w-5' : 'h-4 w-4'} />
      <ActionCount label="Download" count={item.downloads} noun="download" testId="download-count" large={large} />
    </a>
  );
}

/**
 * "Wear this cape" or "Wear these ears": puts the item on the player; `large` (the texture page) also says how many
 * wore it. While busy, and once the player wears the item, it says so and stays in the tab order (keeping focus),
 * doing nothing.
 */
export function WearButton({
  item,
  busy,
  onWear,
  large = false,
}: {
  item: GalleryItem;
  busy: boolean;
  onWear: () => void;
  large?: boolean;
}) {
  const wearing = item.user_wears && !busy;
  return (
    <button
      type="button"
      data-testid="wear-button"
      onClick={wearing || busy ? undefined : onWear}
      aria-busy={busy}
      aria-disabled={wearing || busy || undefined}
      className={`${
        large
          ? 'btn-primary inline-flex items-center gap-1.5'
          : 'btn-secondary inline-flex w-full items-center justify-center gap-1.5 px-2 py-1 text-sm'
      } ${wearing ? 'cursor-default opacity-80' : ''}`}
    >
      {wearing ? (
        <CheckIcon className={large ? 'h-5 w-5' : 'h-4 w-4'} />
      ) : (
        <CapeIcon className={large ? 'h-5 w-5' : 'h-4 w-4'} />
      )}
      {busy ? 'Putting it on…' : wearing ? wearingLabel(item) : wearLabel(item)}
      {large && (
        <span className="font-normal">
          (<span data-testid="wear-count">{formatCount(item.wears)}</span> {plural(item.wears, 'wear')})
        </span>
      )}
    </button>
  );
}

/**
 * What the last wear did, as a status line: put the item on (the player is told what others now see, and where the
 * wardrobe is), or why not.
 */
export function WearStatus({ notice }: { notice: WearNotice | null }) {
  if (!notice) return null;
  return (
    <p
      role="status"
      className={`text-sm ${notice.ok ? 'text-emerald-300' : 'text-amber-200'}`}
      data-testid="wear-notice"
    >
      {notice.text}
      {notice.ok && (
        <>
          {' '}
          It is in <a href={routeByName('wardrobe').path}>your wardrobe</a>, to wear again later.
        </>
      )}
    </p>
  );
}

/** The kind of texture as a small badge; `short` says "Animated" for an animated cape (cards are narrow). */
export function KindBadge({ item, short = false }: { item: GalleryItem; short?: boolean }) {
  const label = kindLabel(item);
  return (
    <span
      className="shrink-0 rounded-md bg-ink-700 px-1.5 py-0.5 text-[11px] font-semibold tracking-wide text-ink-300 uppercase"
      title={label}
    >
      {short && label === 'Animated cape' ? 'Animated' : label}
    </span>
  );
}

/** The marked-safe badge. */
export function WhitelistedBadge() {
  return (
    <span
      className="inline-flex items-center gap-1 rounded-md bg-emerald-500/15 px-2 py-0.5 text-xs font-semibold text-emerald-300"
      title="Marked safe by staff"
    >
      <ShieldIcon className="h-3.5 w-3.5" /> Staff approved
    </span>
  );
}

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
