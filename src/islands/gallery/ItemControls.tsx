// The controls a card and the texture page share: like, download, wear and its notice, and the kind and marked-safe
// badges. The confirmation steps (report, delete) are in ItemConfirmations.tsx.
import { downloadUrl, kindLabel, wearingLabel, wearLabel, type GalleryItem } from './gallery-api';
import { CapeIcon, CheckIcon, DownloadIcon, HeartIcon, ShieldIcon } from './icons';
import { formatCount, plural } from '../../lib/plural';
import type { WearNotice } from './useItemActions';
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
