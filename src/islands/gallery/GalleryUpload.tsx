// /gallery/new: share a texture (SPEC §4 gallery upload): waiting → confirming (3D preview) → uploading (progress) → uploaded (opens the texture) | failed (back to waiting after 3 s).
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { describeApiError, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { checkGalleryDimensions, checkGalleryFile, checkGalleryTitle, galleryMessages, isEarsSize } from '../../lib/gallery-rules';
import { $user } from '../../lib/session';
import { uploadFile } from '../../lib/upload';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../upload/PlayerPreview';
import { checkTextureFile, heldCape, textureMessageDisplay, type HeldTexture, type TextureChecks } from '../upload/textures';
import { DropZone, ProgressBar, TextureImage, usePreventWindowDrop } from '../upload/UploadPanel';
import { BackButton } from './BackButton';
import { itemHref } from './gallery-api';
import { useTags } from './TagChips';
import { TitleAndTagsFields } from './TitleAndTagsFields';

/** The gallery's file rules (SPEC §5): PNG or GIF up to 500 KB; 14 × 7 is ears, anything else follows the cape rules. */
export const GALLERY_CHECKS: TextureChecks = { checkFile: checkGalleryFile, checkDimensions: checkGalleryDimensions, animated: true };

/** What the drop zone tells the player about files. */
const GALLERY_FILES = { accept: '.png,.gif', typesLabel: 'PNG or GIF up to 500 KB: a cape (64 × 32 up to 2048 × 1024) or ears (14 × 7)' };

/** How long failed lasts before the form returns to waiting. */
export const GALLERY_FAILED_RESET_MS = 3000;

/** The states of SPEC §4. */
export type GalleryUploadStatus = 'waiting' | 'confirming' | 'uploading' | 'uploaded' | 'failed';

interface State {
  status: GalleryUploadStatus;
  held: HeldTexture | null;
  checking: boolean;
  progress: number;
  error: ErrorDisplayValue | null;
  /** The new (or already existing) texture after uploaded. */
  result: { hash: string; existing: boolean } | null;
}

type Action =
  | { type: 'check-started' }
  | { type: 'check-failed'; message: string }
  | { type: 'check-passed'; texture: HeldTexture }
  | { type: 'cancel' }
  | { type: 'invalid'; message: string }
  | { type: 'upload-started' }
  | { type: 'progress'; fraction: number }
  | { type: 'uploaded'; hash: string; existing: boolean }
  | { type: 'failed'; error: ErrorDisplayValue }
  | { type: 'reset' };

const initial: State = { status: 'waiting', held: null, checking: false, progress: 0, error: null, result: null };

const holding = (status: GalleryUploadStatus) => status === 'confirming' || status === 'uploading' || status === 'uploaded';

function message(text: string): ErrorDisplayValue {
  return textureMessageDisplay(text, text === galleryMessages.fileTooBig);
}

/** The pure transition function; actions that do not fit the current state change nothing. */
export function galleryUploadReducer(state: State, action: Action): State {
  switch (action.type) {
    case 'check-started':
      return holding(state.status) ? state : { ...state, checking: true, error: null };
    case 'check-failed':
      return holding(state.status) ? state : { ...state, status: 'waiting', held: null, checking: false, error: message(action.message) };
    case 'check-passed':
      return holding(state.status) ? state : { ...state, status: 'confirming', held: action.texture, checking: false, error: null };
    case 'cancel':
      return state.status === 'confirming' ? { ...state, status: 'waiting', held: null, error: null } : state;
    case 'invalid':
      return state.status === 'waiting' || state.status === 'confirming' ? { ...state, error: message(action.message) } : state;
    case 'upload-started':
      return state.status === 'confirming' ? { ...state, status: 'uploading', progress: 0, error: null } : state;
    case 'progress':
      return state.status === 'uploading' ? { ...state, progress: Math.max(state.progress, action.fraction) } : state;
    case 'uploaded':
      return state.status === 'uploading' ? { ...state, status: 'uploaded', progress: 1, result: { hash: action.hash, existing: action.existing } } : state;
    case 'failed':
      return state.status === 'uploading' ? { ...state, status: 'failed', error: action.error } : state;
    case 'reset':
      // The failure's message stays readable; the file goes, the title and tags stay.
      return state.status === 'failed' ? { ...state, status: 'waiting', held: null, progress: 0 } : state;
    default:
      return state;
  }
}

interface NewBody {
  success?: boolean;
  hash?: string;
  existing?: boolean;
}

/** The gallery upload island. */
export default function GalleryUpload() {
  const user = useStore($user);
  const tags = useTags();
  const [state, dispatch] = useReducer(galleryUploadReducer, initial);
  const [title, setTitle] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const stateRef = useRef(state);
  stateRef.current = state;
  const mounted = useRef(true);
  const checkSequence = useRef(0);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // failed returns to waiting after 3 s.
  useEffect(() => {
    if (state.status !== 'failed') return;
    const timer = window.setTimeout(() => dispatch({ type: 'reset' }), GALLERY_FAILED_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [state.status]);

  // uploaded opens the texture's page.
  useEffect(() => {
    if (state.status === 'uploaded' && state.result) location.assign(itemHref(state.result.hash));
  }, [state.status, state.result]);

  // A held file's object URL lives as long as it is held.
  useEffect(() => {
    const url = state.held?.url;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [state.held]);

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

  const pickFile = useCallback(async (file: File | undefined) => {
    if (!file || holding(stateRef.current.status)) return;
    const sequence = ++checkSequence.current;
    dispatch({ type: 'check-started' });
    const result = await checkTextureFile(file, GALLERY_CHECKS);
    if (!mounted.current || sequence !== checkSequence.current || holding(stateRef.current.status)) {
      if (result.ok) URL.revokeObjectURL(result.texture.url);
      return;
    }
    dispatch(result.ok ? { type: 'check-passed', texture: result.texture } : { type: 'check-failed', message: result.message });
  }, []);

  const upload = async () => {
    const { status, held } = stateRef.current;
    if (status !== 'waiting' && status !== 'confirming') return;
    if (!held || title.trim() === '' || selected.length === 0) {
      dispatch({ type: 'invalid', message: galleryMessages.missingFields });
      return;
    }
    const titleProblem = checkGalleryTitle(title);
    if (titleProblem) {
      dispatch({ type: 'invalid', message: titleProblem });
      return;
    }
    dispatch({ type: 'upload-started' });
    let response;
    try {
      response = await uploadFile('/api/gallery/new', held.file, {
        fields: { title: title.trim(), tags: JSON.stringify(selected) },
        onProgress: (fraction) => dispatch({ type: 'progress', fraction }),
      });
    } catch {
      return; // Aborted: the page is going away.
    }
    if (!mounted.current) return;
    const body = response.body as NewBody | undefined;
    if (response.status >= 200 && response.status < 300 && body?.success === true && typeof body.hash === 'string') {
      dispatch({ type: 'uploaded', hash: body.hash, existing: body.existing === true });
    } else if (response.status === 429) {
      dispatch({ type: 'failed', error: { kind: 'message', message: galleryMessages.tooManyUploads } });
    } else {
      dispatch({ type: 'failed', error: describeApiError(body) });
    }
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
          <p className="mt-1 text-ink-300">Share a cape or ears with everyone. Others can like it, download it and wear it.</p>
        </div>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-2" data-testid="gallery-upload" data-state={state.status}>
        <section className="card flex min-w-0 flex-col gap-5" aria-label="Your texture">
          <DropZone kind={GALLERY_FILES} noun={{ singular: 'texture', plural: false }} holding={holding(state.status)} checking={state.checking} onFile={pickFile} />

          {held && (
            <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
              <TextureImage url={held.url} alt="The texture you picked" />
              <dl className="min-w-0 flex-1 text-sm">
                <dt className="sr-only">File</dt>
                <dd className="truncate font-semibold" title={held.file.name}>
                  {held.file.name}
                </dd>
                <dt className="sr-only">Kind and size</dt>
                <dd className="text-ink-300">
                  {earsHeld ? 'Ears' : held.frames ? `Animated cape, ${held.frames.length} frames` : 'Cape'} · {held.width} × {held.height} px
                </dd>
              </dl>
            </div>
          )}

          <TitleAndTagsFields
            title={title}
            onTitle={setTitle}
            tags={tags}
            selected={selected}
            onSelected={setSelected}
            busy={busy}
            placeholder="e.g. Starry night"
            titleRef={titleInput}
          />

          <div className="flex flex-wrap gap-3">
            <button ref={uploadButton} type="button" className="btn-primary min-w-32 flex-1 py-3" onClick={() => void upload()} disabled={busy || state.checking || state.status === 'failed'}>
              {state.status === 'uploading' ? 'Uploading…' : 'Upload'}
            </button>
            {state.status === 'confirming' && (
              <button type="button" className="btn-secondary min-w-32 py-3" onClick={() => dispatch({ type: 'cancel' })}>
                Cancel
              </button>
            )}
          </div>

          <div aria-live="polite" className="empty:hidden">
            {state.status === 'confirming' && <p className="text-sm text-ink-300">Looks good! Check the 3D preview, then upload it.</p>}
            {state.status === 'uploading' && <ProgressBar value={state.progress} label="Uploading your texture…" />}
            {state.status === 'uploaded' && (
              <p className="rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200" data-testid="upload-success">
                <strong>{state.result?.existing ? 'Already in the gallery!' : 'Uploaded!'}</strong> Opening the texture…
              </p>
            )}
          </div>
          <div ref={errorBox} className="empty:hidden">
            <ErrorDisplay error={state.error} />
          </div>
          <p className="text-xs text-ink-300">
            Only share textures you made or may share, and follow the <a href="/legal/rules">rules</a>: breaking them gets the account banned.
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
