// One gallery card: the preview, title and author links, Wear this, like and download counts, and the report and delete
// steps.
import { memo, useState, type ReactNode, type Ref } from 'react';
import type { ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { deleteItem, itemHref, previewUrl, reportItem, userGalleryHref, type GalleryItem } from './gallery-api';
import { FlagIcon, TrashIcon } from './icons';
import { DownloadLink, KindBadge, LikeButton, WearButton, WearStatus } from './ItemControls';
import { DeleteConfirm, ReportConfirm, WhitelistedNotice } from './ItemConfirmations';
import { useItemActions } from './useItemActions';
import { useStepFocus } from './useStepFocus';

/** What a card needs from its list. */
export interface GalleryCardProps {
  item: GalleryItem;
  /** Removes the card at once and runs the call (delete or report); the list brings it back if the call fails. */
  onRemove: (hash: string, call: () => Promise<unknown>) => void;
  /** Why the last removal failed, if it did. */
  removeError?: ErrorDisplayValue;
  /** Loads the preview at once (cards in the first rows). */
  eager?: boolean;
}

/** A card's icon button that opens a step (Report, Delete), named by its label and the item's title. */
function StepButton({
  ref,
  label,
  item,
  hover,
  icon,
  onClick,
}: {
  ref: Ref<HTMLButtonElement>;
  label: string;
  item: GalleryItem;
  /** The icon's colour under the pointer. */
  hover: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className={`rounded-lg p-1.5 text-ink-300 hover:bg-ink-700 ${hover}`}
      title={label}
      aria-label={`${label} ${item.title}`}
      onClick={onClick}
    >
      {icon}
    </button>
  );
}

/** A gallery card. */
export const GalleryCard = memo(function GalleryCard({
  item: initial,
  onRemove,
  removeError,
  eager = false,
}: GalleryCardProps) {
  const actions = useItemActions(initial);
  const { item, state } = actions;
  const steps = useStepFocus(state);
  // A preview that fails to load (the image service is down, the texture is gone) shows a placeholder, not a broken
  // image.
  const [previewFailed, setPreviewFailed] = useState(false);

  // The author's own item goes at once (the list brings it back if the call fails); a moderator's removal waits for the
  // server in the step, so that a refusal is said there with the chosen reason kept.
  const confirmDelete = async (reason: string | null) => {
    if (reason === null) {
      onRemove(item.hash, () => deleteItem(item.hash));
      return;
    }
    await deleteItem(item.hash, reason);
    onRemove(item.hash, () => Promise.resolve());
  };

  return (
    <article
      className="relative flex min-w-0 flex-col overflow-hidden rounded-xl border border-ink-700 bg-ink-900 shadow-lg transition-colors hover:border-ink-600"
      data-testid="gallery-card"
      data-hash={item.hash}
      data-state={state}
      aria-label={item.title}
    >
      <a
        href={itemHref(item.hash)}
        className="relative block aspect-[16/9] bg-[radial-gradient(circle_at_50%_40%,var(--color-ink-700),var(--color-ink-950)_80%)]"
        tabIndex={-1}
        aria-hidden="true"
      >
        {previewFailed ? (
          <span
            className="flex h-full w-full items-center justify-center text-sm text-ink-300"
            data-testid="card-preview-missing"
          >
            No preview
          </span>
        ) : (
          <img
            src={previewUrl(item.hash)}
            alt=""
            width={320}
            height={180}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            className="h-full w-full object-contain [image-rendering:pixelated]"
            onError={() => setPreviewFailed(true)}
          />
        )}
      </a>
      <div className="pointer-events-none absolute top-2 left-2 shadow-md">
        <KindBadge item={item} short />
      </div>
      {actions.likeNotice && (
        <p
          role="status"
          className="absolute inset-x-2 top-2 rounded-lg bg-ink-950/95 px-3 py-2 text-xs text-ink-100 shadow-lg"
          data-testid="like-notice"
        >
          {actions.likeNotice.kind === 'message' ? actions.likeNotice.message : actions.likeNotice.messages.join(' ')}
        </p>
      )}
      <div className="flex flex-1 flex-col gap-1 px-3 pt-2.5 pb-2">
        <h3 className="line-clamp-2 font-bold leading-snug break-words">
          <a
            href={itemHref(item.hash)}
            className="text-ink-100 hover:text-brand-400"
            title={item.title}
            data-testid="card-title"
          >
            {item.title}
          </a>
        </h3>
        <p className="truncate text-sm text-ink-300">
          by{' '}
          <a href={userGalleryHref(item.author)} data-testid="card-author">
            {item.author_name}
          </a>
        </p>
        {removeError && (
          <div className="text-xs [&>div]:mt-1 [&>div]:px-2 [&>div]:py-1.5">
            <ErrorDisplay error={removeError} />
          </div>
        )}
        {actions.canWear && (
          <div className="mt-auto flex flex-col gap-1 pt-1">
            <WearButton item={item} busy={actions.wearing} onWear={actions.wear} />
            <WearStatus notice={actions.wearNotice} />
          </div>
        )}
        <div className={`${actions.canWear ? '' : 'mt-auto '}-mx-1 flex items-center gap-0.5 pt-1`}>
          <LikeButton item={item} onToggle={actions.toggleLike} />
          <DownloadLink item={item} onDownload={actions.countDownload} />
          <span className="flex-1" />
          {actions.canReport && (
            <StepButton
              ref={steps.buttonRef('report')}
              label="Report"
              item={item}
              hover="hover:text-amber-300"
              icon={<FlagIcon />}
              onClick={() => steps.open('report', actions.openReport)}
            />
          )}
          {actions.canManage && (
            <StepButton
              ref={steps.buttonRef('delete')}
              label="Delete"
              item={item}
              hover="hover:text-red-300"
              icon={<TrashIcon />}
              onClick={() => steps.open('delete', actions.openDelete)}
            />
          )}
        </div>
      </div>
      {state !== 'waiting' && (
        <div className="absolute inset-0 flex flex-col justify-center-safe overflow-y-auto bg-ink-900/95 p-3 backdrop-blur-sm">
          {state === 'delete' && (
            <DeleteConfirm
              item={item}
              forReason={actions.deletesForReason}
              onConfirm={confirmDelete}
              onCancel={actions.cancel}
            />
          )}
          {state === 'report' && (
            <ReportConfirm
              item={item}
              onConfirm={(grounds) => onRemove(item.hash, () => reportItem(item.hash, grounds))}
              onCancel={actions.cancel}
            />
          )}
          {state === 'report_whitelisted' && <WhitelistedNotice onBack={actions.cancel} />}
        </div>
      )}
    </article>
  );
});
