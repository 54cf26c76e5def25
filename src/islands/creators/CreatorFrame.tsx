// The frame every cape creator shares: its controls, the 320 × 180 preview image, the 3D model, a download link, and
// for the logged-in player "Use as my cape" and "Share to the gallery".
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $user } from '../../lib/client/session';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../shared/PlayerPreview';
import { ProgressBar } from '../shared/ProgressBar';
import type { CapeTexture } from '../shared/preview/images';
import { TitleAndTagsFields, useTitleAndTags } from '../gallery/TitleAndTagsFields';
import { itemHref } from '../gallery/gallery-api';
import { useGalleryFieldsSubmit } from '../gallery/useGalleryFieldsSubmit';
import { shareCreation, wearCreation, type Creation } from './creator-api';
import type { CreationState } from './useCreation';

/** What a creator page shows around its controls. */
export interface CreatorFrameProps {
  title: string;
  intro: ReactNode;
  /** The creator's controls. */
  children: ReactNode;
  state: CreationState;
  /** The downloaded file's name, without extension. */
  fileName: string;
  /** What the preview says before anything was asked for. */
  idleHint: string;
}

/** The creator's cape as the 3D model shows it: a strip for an animation, else the still. */
function capeTexture(creation: Creation | null): CapeTexture | null {
  if (!creation) return null;
  return creation.frames > 1 ? { kind: 'strip', url: creation.cape } : { kind: 'image', url: creation.cape };
}

/**
 * An object URL of the cape's bytes, so the download link saves the file whatever origin the textures come from (null
 * until fetched).
 */
function useDownloadUrl(creation: Creation | null): string | null {
  const [download, setDownload] = useState<{ cape: string; url: string } | null>(null);
  useEffect(() => {
    if (!creation) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(creation.cape)
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob || cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setDownload({ cape: creation.cape, url: objectUrl });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [creation]);
  return creation && download?.cape === creation.cape ? download.url : null;
}

/** "Use as my cape" and "Share to the gallery" for a creator's cape (a new cape remounts it, clearing its state). */
function CreationActions({ creation }: { creation: Creation }) {
  const [wear, setWear] = useState<'idle' | 'busy' | 'done'>('idle');
  const [sharing, setSharing] = useState(false);
  const { title, selected, fields } = useTitleAndTags();
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const formId = useId();

  const wearIt = async () => {
    setWear('busy');
    setError(null);
    try {
      await wearCreation(creation.hash);
      setWear('done');
    } catch (failure) {
      setWear('idle');
      setError(describeApiError(errorBody(failure)));
    }
  };

  const {
    busy,
    error: shareError,
    submit,
  } = useGalleryFieldsSubmit(async (trimmed, keys) => {
    const shared = await shareCreation(creation.hash, trimmed, keys);
    location.assign(itemHref(shared.hash));
  });
  const share = () => submit(title, selected);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-secondary" onClick={() => void wearIt()} disabled={wear === 'busy'}>
          {wear === 'busy' ? 'Saving…' : 'Use as my cape'}
        </button>
        <button
          type="button"
          className="btn-secondary"
          aria-expanded={sharing}
          aria-controls={formId}
          onClick={() => setSharing((open) => !open)}
        >
          Share to the gallery
        </button>
      </div>
      {wear === 'done' && (
        <p role="status" className="text-sm text-emerald-300">
          You are wearing this cape now. Everyone with the mod sees it in game.
        </p>
      )}
      {sharing && (
        <form
          id={formId}
          className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4"
          onSubmit={(event) => {
            event.preventDefault();
            void share();
          }}
        >
          <TitleAndTagsFields {...fields} busy={busy} autoFocus />
          <button type="submit" className="btn-primary self-start" disabled={busy}>
            {busy ? 'Sharing…' : 'Share'}
          </button>
        </form>
      )}
      <ErrorDisplay error={error ?? shareError} />
    </div>
  );
}

/**
 * What the empty preview says after a failed request: the error below it says why when there is one (an outside service
 * that failed is not the settings' fault).
 */
function invalidHint(state: CreationState): string {
  return state.error ? 'No cape was made.' : 'No cape could be made with these settings.';
}

/** The creator page's frame. */
export function CreatorFrame({ title, intro, children, state, fileName, idleHint }: CreatorFrameProps) {
  const user = useStore($user);
  const { creation, status } = state;
  const shown = status === 'invalid' ? null : creation;
  const downloadUrl = useDownloadUrl(shown);
  const cape = capeTexture(shown);
  const loading = status === 'loading';
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        <div className="mt-1 text-ink-300">{intro}</div>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section className="card flex min-w-0 flex-col gap-5" aria-label="Settings">
          {children}
        </section>
        <section
          className="card flex min-w-0 flex-col gap-4"
          aria-label="Your cape"
          data-testid="creator-result"
          data-state={status}
        >
          <div
            className="relative mx-auto aspect-[16/9] w-full max-w-[320px] overflow-hidden rounded-xl bg-ink-950"
            aria-busy={loading}
          >
            {shown ? (
              <img
                src={shown.preview}
                width={320}
                height={180}
                alt="Preview of the cape's outside and inside"
                className="h-full w-full [image-rendering:pixelated]"
                data-testid="creator-preview"
              />
            ) : (
              <p className="flex h-full items-center justify-center px-6 text-center text-sm text-ink-400">
                {status === 'invalid' ? invalidHint(state) : status === 'loading' ? '' : idleHint}
              </p>
            )}
            {loading && (
              <div
                className="absolute inset-0 flex items-center justify-center bg-ink-950/70"
                role="status"
                data-testid="creator-loading"
              >
                <span
                  className="h-8 w-8 animate-spin rounded-full border-4 border-ink-600 border-t-brand-400"
                  aria-hidden="true"
                />
                <span className="sr-only">Making your cape…</span>
              </div>
            )}
          </div>
          {loading && state.progress !== null && <ProgressBar value={state.progress} label="Sending your picture" />}
          <ErrorDisplay error={state.error} />
          {shown?.notice && (
            <p role="status" className="text-sm text-amber-200">
              {shown.notice}
            </p>
          )}
          <PlayerPreview uuid={user?.uuid ?? null} cape={cape} ears={null} facing="back" elytraToggle />
          {shown && (
            <div className="flex flex-col gap-3">
              <a
                className={`btn-primary self-start ${downloadUrl ? '' : 'pointer-events-none opacity-60'}`}
                href={downloadUrl ?? shown.cape}
                download={`${fileName}.png`}
                aria-disabled={!downloadUrl}
                data-testid="creator-download"
              >
                Download PNG
              </a>
              <CreationActions key={shown.hash} creation={shown} />
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
