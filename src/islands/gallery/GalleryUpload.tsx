// /gallery/new: share a texture: waiting → confirming (3D preview) → uploading (progress) → uploaded (opens the
// texture) | failed (back to waiting after 3 s).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { describeApiError } from '../../lib/client/api-errors';
import {
  checkGalleryDimensions,
  checkGalleryFields,
  checkGalleryFile,
  galleryMessages,
  isEarsSize,
} from '../../lib/gallery-rules';
import { countOf } from '../../lib/plural';
import { $user } from '../../lib/client/session';
import { CAPE_SIZES } from '../../lib/texture-rules';
import type { UploadResponse } from '../../lib/client/upload';
import { DropZone, usePreventWindowDrop } from '../shared/DropZone';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../shared/PlayerPreview';
import { ProgressBar } from '../shared/ProgressBar';
import { heldCape, textureMessageDisplay, type TextureChecks } from '../shared/texture-files';
import { PickedFile } from '../shared/TextureImage';
import { UploadNotice } from '../shared/UploadNotice';
import { isHoldingFile, useUploadFlow, type UploadEnd } from '../shared/useUploadFlow';
import { BackButton } from './BackButton';
import { itemHref, rememberAlreadyShared } from './gallery-api';
import { TitleAndTagsFields, useTitleAndTags } from './TitleAndTagsFields';

/** The gallery's file rules: PNG or GIF up to 500 KB; 14 × 7 is ears, anything else follows the cape rules. */
export const GALLERY_CHECKS: TextureChecks = {
  checkFile: checkGalleryFile,
  checkDimensions: checkGalleryDimensions,
  animated: true,
};

/** What the drop zone tells the player about files. */
const GALLERY_FILES = {
  accept: '.png,.gif',
  typesLabel: `PNG or GIF up to 500 KB: a cape (${CAPE_SIZES}) or ears (14 × 7)`,
};

/** How long failed lasts before the form returns to waiting. */
export const GALLERY_FAILED_RESET_MS = 3000;

/** The gallery upload island. */
export default function GalleryUpload() {
  const user = useStore($user);
  const { state, stateRef, pickFile, cancel, upload: send, showMessage } = useUploadFlow(GALLERY_CHECKS);
  // The new (or already existing) texture after uploaded.
  const [result, setResult] = useState<{ hash: string; existing: boolean } | null>(null);
  const { title, selected, fields } = useTitleAndTags();
  const uploadButton = useRef<HTMLButtonElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // uploaded opens the texture's page, unless the server changed the texture to fit: then its note stays readable, with
  // a link.
  useEffect(() => {
    if (state.status !== 'uploaded' || !result || state.notice) return;
    if (result.existing) rememberAlreadyShared(result.hash);
    location.assign(itemHref(result.hash));
  }, [state.status, state.notice, result]);

  // A file that passed the checks moves the focus to what is still missing, else to Upload.
  useEffect(() => {
    if (state.status !== 'confirming') return;
    if (!titleInput.current?.value) titleInput.current?.focus();
    else uploadButton.current?.focus();
  }, [state.status]);

  // A new message scrolls into view (it sits below the Upload button, often under the fold).
  useEffect(() => {
    if (state.error) errorBox.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [state.error]);

  usePreventWindowDrop();

  // Checks the title, tags and file, then sends them; failed returns to waiting after 3 s, uploaded stays while the
  // texture's page opens.
  const upload = async () => {
    const { status, held } = stateRef.current;
    if (status !== 'waiting' && status !== 'confirming') return;
    const problem = held ? checkGalleryFields(title, selected) : galleryMessages.missingFields;
    if (problem) {
      showMessage(textureMessageDisplay(problem));
      return;
    }
    const settle = (response: UploadResponse<'galleryUpload'>): UploadEnd => {
      if (response.ok && response.body.success === true && typeof response.body.hash === 'string') {
        const body = response.body;
        setResult({ hash: body.hash, existing: body.existing === true });
        return { type: 'upload-succeeded', resetAfterMs: null, notice: body.notice ?? null };
      }
      // A refused file (413 when it is too big) gets the same compress link as the page's own check.
      const described = describeApiError(response.body);
      const error =
        response.status === 429
          ? { kind: 'message' as const, message: galleryMessages.tooManyUploads }
          : described.kind === 'message'
            ? textureMessageDisplay(described.message)
            : described;
      return { type: 'upload-failed', error, resetAfterMs: GALLERY_FAILED_RESET_MS };
    };
    await send('galleryUpload', settle, { title: title.trim(), tags: JSON.stringify(selected) });
  };

  const held = state.held;
  const earsHeld = !!held && isEarsSize(held);
  const cape = useMemo(() => (held && !earsHeld ? heldCape(held) : null), [held, earsHeld]);
  const busy = state.status === 'uploading' || state.status === 'uploaded';

  return (
    <div>
      <div className="mb-4">
        <BackButton fallback="/gallery" />
      </div>
      <header className="mb-6">
        <div className="min-w-0">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Upload a texture</h1>
          <p className="mt-1 text-ink-300">
            Share a cape or ears with everyone. Others can like it, download it and wear it.
          </p>
        </div>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-2" data-testid="gallery-upload" data-state={state.status}>
        <section className="card flex min-w-0 flex-col gap-5" aria-label="Your texture">
          <DropZone
            kind={GALLERY_FILES}
            noun={{ singular: 'texture', plural: false }}
            holding={isHoldingFile(state)}
            checking={state.checking}
            onFile={pickFile}
          />

          {held && (
            <PickedFile
              held={held}
              alt="The texture you picked"
              details={[
                {
                  label: 'Kind and size',
                  text: `${earsHeld ? 'Ears' : held.frames ? `Animated cape, ${countOf(held.frames.length, 'frame')}` : 'Cape'} · ${held.width} × ${held.height} px`,
                },
              ]}
            />
          )}

          <TitleAndTagsFields {...fields} busy={busy} placeholder="e.g. Starry night" titleRef={titleInput} />

          <div className="flex flex-wrap gap-3">
            <button
              ref={uploadButton}
              type="button"
              className="btn-primary min-w-32 flex-1 py-3"
              onClick={() => void upload()}
              disabled={busy || state.checking || state.status === 'failed' || !held}
            >
              {state.status === 'uploading' ? 'Uploading…' : 'Upload'}
            </button>
            {state.status === 'confirming' && (
              <button type="button" className="btn-secondary min-w-32 py-3" onClick={cancel}>
                Cancel
              </button>
            )}
          </div>

          <div aria-live="polite" className="empty:hidden">
            {state.status === 'confirming' && (
              <p className="text-sm text-ink-300">Looks good! Check the 3D preview, then upload it.</p>
            )}
            {state.status === 'uploading' && <ProgressBar value={state.progress} label="Uploading your texture…" />}
            {state.status === 'uploaded' && (
              <p
                className="rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200"
                data-testid="upload-success"
              >
                <strong>{result?.existing ? 'Already in the gallery!' : 'Uploaded!'}</strong>{' '}
                {state.notice && result ? <a href={itemHref(result.hash)}>Open the texture</a> : 'Opening the texture…'}
              </p>
            )}
            <UploadNotice notice={state.notice} />
          </div>
          <div ref={errorBox} className="empty:hidden">
            <ErrorDisplay error={state.error} />
          </div>
          <p className="text-xs text-ink-300">
            Only share textures you made or may share, and follow the <a href="/legal/rules">rules</a>: breaking them
            gets the account banned.
          </p>
        </section>

        <section className="card min-w-0" aria-label="3D preview">
          <h2 className="mb-3 text-sm font-semibold tracking-widest text-ink-300 uppercase">Preview</h2>
          <PlayerPreview
            key={earsHeld ? 'ears' : 'cape'}
            uuid={user?.uuid ?? null}
            cape={cape}
            ears={earsHeld && held ? held.url : null}
            facing={earsHeld ? 'front' : 'back'}
            zoom={earsHeld ? 0.7 : 0.8}
            elytraToggle={!earsHeld}
          />
          {!held && <p className="mt-3 text-sm text-ink-300">Pick a file to try it on.</p>}
        </section>
      </div>
    </div>
  );
}
