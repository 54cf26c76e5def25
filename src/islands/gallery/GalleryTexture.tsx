// /gallery/{hash}: one texture in the 3D preview with its details, like, download, report, delete and (author or admin)
// edit; an unknown hash goes back to /gallery.
import { formatDate } from '../../lib/dates';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { FetchError } from 'ofetch';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { $user } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../shared/PlayerPreview';
import type { CapeTexture } from '../shared/preview/images';
import { BackButton } from './BackButton';
import { EditForm } from './EditForm';
import type { ReportGrounds } from '../../lib/report-rules';
import {
  deleteItem,
  fetchItem,
  isEars,
  mapUrl,
  reportItem,
  takeAlreadyShared,
  textureUrl,
  userGalleryHref,
  type GalleryItem,
} from './gallery-api';
import { FlagIcon, PencilIcon, TrashIcon } from './icons';
import { DownloadLink, KindBadge, LikeButton, WearButton, WearStatus, WhitelistedBadge } from './ItemControls';
import { DeleteConfirm, ReportConfirm, WhitelistedNotice } from './ItemConfirmations';
import { useItemActions } from './useItemActions';
import { useStepFocus } from './useStepFocus';
import { TEXTURE_HASH_PATTERN } from '../../lib/ids';

const TEXTURE_PAGE_PATH = new RegExp(`^/gallery/(${TEXTURE_HASH_PATTERN})/?$`);

/** The hash in a /gallery/{hash} path, or null. */
export function hashFromPath(pathname: string): string | null {
  return TEXTURE_PAGE_PATH.exec(pathname)?.[1] ?? null;
}

/** The cape the 3D preview shows for an item: the animated strip, the still cape, or none for ears. */
function capeOf(item: GalleryItem): CapeTexture | null {
  if (isEars(item)) return null;
  if (item.animated_texture) return { kind: 'strip', url: textureUrl(item.animated_texture) };
  return { kind: 'image', url: textureUrl(item.texture) };
}

/** The page while the item loads. */
function TextureSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-2" aria-busy="true" data-testid="texture-loading">
      <p className="sr-only" role="status">
        Loading the texture…
      </p>
      <div className="card aspect-[4/5] max-h-[34rem] animate-pulse" />
      <div className="card space-y-4">
        <div className="h-8 w-2/3 animate-pulse rounded bg-ink-700" />
        <div className="h-4 w-1/3 animate-pulse rounded bg-ink-800" />
        <div className="h-24 animate-pulse rounded bg-ink-800" />
      </div>
    </div>
  );
}

/** The loaded texture with its controls. */
function TextureDetails({ initial, reload }: { initial: GalleryItem; reload: () => Promise<void> }) {
  const user = useStore($user);
  const actions = useItemActions(initial);
  const { item, state } = actions;
  const steps = useStepFocus(state);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [reported, setReported] = useState(false);
  const [alreadyShared] = useState(() => takeAlreadyShared(initial.hash));
  const ears = isEars(item);
  const cape = useMemo(() => capeOf(item), [item.type, item.texture, item.animated_texture]); // eslint-disable-line react-hooks/exhaustive-deps
  const earsUrl = ears ? textureUrl(item.texture) : null;

  const confirmDelete = async (reason: string | null) => {
    if (reason !== null) {
      // A moderator's removal: DeleteConfirm says a refusal in the step, with the chosen reason kept.
      await deleteItem(item.hash, reason);
      location.assign('/gallery');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await deleteItem(item.hash);
      location.assign('/gallery');
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
      setBusy(false);
      actions.cancel();
    }
  };

  const confirmReport = async (grounds: ReportGrounds) => {
    setBusy(true);
    setError(null);
    try {
      await reportItem(item.hash, grounds);
      setReported(true);
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    }
    setBusy(false);
    actions.cancel();
  };

  const saved = async () => {
    actions.cancel();
    await reload();
  };

  return (
    <div
      className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      data-testid="texture-page"
      data-state={state}
    >
      <section className="card min-w-0 p-4 sm:p-6" aria-label="3D preview">
        <PlayerPreview
          key={item.hash}
          uuid={user?.uuid ?? null}
          cape={cape}
          ears={earsUrl}
          facing={ears ? 'front' : 'back'}
          zoom={ears ? 0.7 : 0.8}
          elytraToggle={!ears}
        />
      </section>

      <section className="card flex min-w-0 flex-col gap-5" aria-labelledby="texture-title">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <KindBadge item={item} />
            {item.whitelisted && <WhitelistedBadge />}
          </div>
          <h1
            id="texture-title"
            className="mt-2 text-3xl font-extrabold tracking-tight break-words sm:text-4xl"
            data-testid="texture-title"
          >
            {item.title}
          </h1>
          <p className="mt-1 text-ink-300">
            by{' '}
            <a href={userGalleryHref(item.author)} className="font-semibold" data-testid="texture-author">
              {item.author_name}
            </a>
            <span aria-hidden="true"> · </span>
            <span>
              uploaded <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
            </span>
          </p>
          {alreadyShared && (
            <p
              role="status"
              className="mt-3 rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200"
            >
              <strong>Already in the gallery!</strong> The picture you sent was shared before: here it is.
            </p>
          )}
        </div>

        {state === 'edit' ? (
          <EditForm item={item} onSaved={saved} onCancel={actions.cancel} />
        ) : (
          <>
            <div>
              <h2 className="mb-2 text-sm font-semibold tracking-widest text-ink-300 uppercase">Tags</h2>
              {item.tags.length > 0 ? (
                <ul className="flex flex-wrap gap-2" data-testid="texture-tags">
                  {item.tags.map((tag) => (
                    <li key={tag.tag_key}>
                      <a
                        href={`/gallery?tags=${encodeURIComponent(tag.tag_key)}`}
                        className="inline-block rounded-full border border-ink-600 px-3 py-1 text-sm text-ink-100 no-underline hover:border-brand-400"
                      >
                        {tag.name}
                      </a>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-ink-300">No tags.</p>
              )}
            </div>

            <div className="flex flex-wrap items-center gap-3">
              {actions.canWear && <WearButton item={item} busy={actions.wearing} onWear={actions.wear} large />}
              <LikeButton item={item} onToggle={actions.toggleLike} large />
              <DownloadLink item={item} onDownload={actions.countDownload} large />
            </div>
            <WearStatus notice={actions.wearNotice} />
            {actions.likeNotice && (
              <p role="status" className="-mt-2 text-sm text-amber-200" data-testid="like-notice">
                {actions.likeNotice.kind === 'message'
                  ? actions.likeNotice.message
                  : actions.likeNotice.messages.join(' ')}
              </p>
            )}

            {state === 'waiting' && (actions.canManage || actions.canReport) && (
              <div className="flex flex-wrap gap-2 border-t border-ink-700 pt-4">
                {actions.canManage && (
                  <button
                    ref={steps.buttonRef('edit')}
                    type="button"
                    className="btn-secondary text-sm"
                    onClick={() => steps.open('edit', actions.openEdit)}
                  >
                    <PencilIcon /> Edit
                  </button>
                )}
                {actions.canReport && !reported && (
                  <button
                    ref={steps.buttonRef('report')}
                    type="button"
                    className="btn-secondary text-sm"
                    onClick={() => steps.open('report', actions.openReport)}
                  >
                    <FlagIcon /> Report
                  </button>
                )}
                {actions.canManage && (
                  <button
                    ref={steps.buttonRef('delete')}
                    type="button"
                    className="btn-secondary text-sm hover:bg-red-600"
                    onClick={() => steps.open('delete', actions.openDelete)}
                  >
                    <TrashIcon /> Delete
                  </button>
                )}
              </div>
            )}
            {state !== 'waiting' && (
              <div className="rounded-xl border border-ink-600 bg-ink-950/60 p-4">
                {state === 'delete' && (
                  <DeleteConfirm
                    item={item}
                    forReason={actions.deletesForReason}
                    busy={busy}
                    onConfirm={confirmDelete}
                    onCancel={actions.cancel}
                  />
                )}
                {state === 'report' && (
                  <ReportConfirm item={item} busy={busy} onConfirm={confirmReport} onCancel={actions.cancel} />
                )}
                {state === 'report_whitelisted' && <WhitelistedNotice onBack={actions.cancel} />}
              </div>
            )}
            {reported && (
              <p
                role="status"
                className="rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200"
                data-testid="report-sent"
              >
                Thanks for the report. Staff will take a look at this texture.
              </p>
            )}
            <ErrorDisplay error={error} />
          </>
        )}

        <details className="group border-t border-ink-700 pt-4">
          <summary className="cursor-pointer text-sm font-semibold text-ink-300 hover:text-ink-100">
            Texture map
          </summary>
          <img
            src={mapUrl(item.hash)}
            alt={`The texture map of ${item.title}`}
            loading="lazy"
            className="mt-3 w-full rounded-lg border border-ink-700 bg-[length:16px_16px] bg-[conic-gradient(var(--color-ink-800)_25%,var(--color-ink-700)_0_50%,var(--color-ink-800)_0_75%,var(--color-ink-700)_0)] [image-rendering:pixelated]"
          />
        </details>
      </section>
    </div>
  );
}

/** The texture page island. */
export default function GalleryTexture() {
  const [hash] = useState(() => hashFromPath(location.pathname));
  const [item, setItem] = useState<GalleryItem | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  const load = useCallback(async () => {
    if (!hash) {
      location.replace('/gallery');
      return;
    }
    await fetchItem(hash).then(
      (loaded) => {
        setError(null);
        setItem(loaded);
      },
      (failure: unknown) => {
        if (failure instanceof FetchError && failure.response?.status === 404) {
          location.replace('/gallery');
          return;
        }
        setError(
          describeApiError(errorBody(failure), "We couldn't load this texture. Check your connection and try again."),
        );
      },
    );
  }, [hash]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div>
      <div className="mb-6">
        <BackButton fallback="/gallery" />
      </div>
      {item ? (
        <TextureDetails key={item.hash} initial={item} reload={load} />
      ) : error ? (
        <div className="card text-center" data-testid="texture-error">
          <p className="text-lg font-bold">This texture didn't load</p>
          <ErrorDisplay error={error} />
          <button type="button" className="btn-primary mt-4" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : (
        <TextureSkeleton />
      )}
    </div>
  );
}
