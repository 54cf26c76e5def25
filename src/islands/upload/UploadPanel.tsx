// The upload page body shared by the cape and ears islands: drop zone and picker, 2D preview, Upload and Cancel, progress, messages, the remove link and the 3D preview slot.
import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import type { TextureKind } from './texture-kinds';
import type { CapeTexture, HeldTexture } from './textures';
import { isHoldingFile, type TextureUploadState, type useTextureUpload } from './useTextureUpload';

/** The page's words for its texture ("cape", "ears") and whether they take a plural verb. */
export interface Noun {
  singular: string;
  plural: boolean;
}

function formatBytes(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} KB`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The drop zone with its keyboard-accessible file picker; files are ignored while one is held (also used by the gallery upload). */
export function DropZone({ kind, noun, holding, checking, onFile }: { kind: Pick<TextureKind, 'accept' | 'typesLabel'>; noun: Noun; holding: boolean; checking: boolean; onFile: (file: File | undefined) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = holding ? 'none' : 'copy';
    if (!holding) setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFile(event.dataTransfer.files[0]);
  };

  return (
    <div
      data-testid="drop-zone"
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-6 py-8 text-center transition-colors ${
        over ? 'border-brand-400 bg-brand-500/10' : 'border-ink-600 bg-ink-950/40'
      } ${holding ? 'opacity-60' : ''}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-10 w-10 text-brand-400" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 16V4m0 0-4 4m4-4 4 4" />
        <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      </svg>
      <p className="text-lg font-semibold">{holding ? `Upload or cancel ${noun.plural ? 'these' : 'this'} ${noun.singular} first` : `Drop your ${noun.singular} here`}</p>
      <button type="button" className="btn-primary" onClick={() => inputRef.current?.click()} disabled={holding || checking} aria-describedby={hintId}>
        {checking ? (
          <>
            <span className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" aria-hidden="true" /> Checking…
          </>
        ) : (
          'Choose a file'
        )}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={kind.accept}
        className="sr-only"
        tabIndex={-1}
        aria-label={`${capitalise(noun.singular)} file`}
        data-testid="texture-file"
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <p id={hintId} className="text-xs text-ink-300">
        {kind.typesLabel}
      </p>
    </div>
  );
}

/** A pixel-sharp 2D view of a texture on a checkerboard. */
export function TextureImage({ url, alt, strip }: { url: string; alt: string; strip?: boolean }) {
  return (
    <div className="grid aspect-[2/1] w-full max-w-[14rem] shrink-0 sm:w-44 place-items-center overflow-hidden rounded-lg border border-ink-700 bg-[length:16px_16px] bg-[conic-gradient(var(--color-ink-800)_25%,var(--color-ink-700)_0_50%,var(--color-ink-800)_0_75%,var(--color-ink-700)_0)]">
      <img
        src={url}
        alt={alt}
        className={`h-full w-full [image-rendering:pixelated] ${strip ? 'object-cover object-top' : 'object-contain'}`}
        data-testid="texture-2d-preview"
      />
    </div>
  );
}

/** The 2D preview: the held file with its details, else the saved texture, else a note that there is none. */
function FilePreview({ noun, state, savedUrl, savedIsStrip }: { noun: Noun; state: TextureUploadState; savedUrl: string | null; savedIsStrip: boolean }) {
  const held: HeldTexture | null = state.held;
  if (held) {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <TextureImage url={held.url} alt={`The ${noun.singular} you picked`} />
        <dl className="min-w-0 flex-1 text-sm">
          <dt className="sr-only">File</dt>
          <dd className="truncate font-semibold text-ink-100" title={held.file.name}>
            {held.file.name}
          </dd>
          <dt className="sr-only">Size</dt>
          <dd className="text-ink-300">
            {held.width} × {held.height} px · {formatBytes(held.file.size)}
          </dd>
          {held.frames && (
            <>
              <dt className="sr-only">Animation</dt>
              <dd className="text-ink-300">Animated, {held.frames.length} frames</dd>
            </>
          )}
        </dl>
      </div>
    );
  }
  if (state.savedState === 'loading') {
    return (
      <div className="flex items-center gap-4" aria-busy="true">
        <div className="aspect-[2/1] w-full max-w-[14rem] shrink-0 animate-pulse rounded-lg bg-ink-800 sm:w-44" />
        <p className="text-sm text-ink-300">Loading your {noun.singular}…</p>
      </div>
    );
  }
  if (savedUrl) {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <TextureImage url={savedUrl} alt={`Your current ${noun.singular}`} strip={savedIsStrip} />
        <p className="min-w-0 flex-1 text-sm text-ink-300">
          Your current {noun.singular}
          {savedIsStrip ? ' (animated)' : ''}. Upload {noun.plural ? 'new ones to replace them' : 'a new one to replace it'}.
        </p>
      </div>
    );
  }
  return (
    <p className="text-sm text-ink-300">
      {state.savedState === 'failed'
        ? `We couldn't load your current ${noun.singular}. You can still upload ${noun.plural ? 'new ones' : 'a new one'}.`
        : `You have no ${noun.singular} yet. Pick a file to see how it looks.`}
    </p>
  );
}

/** The upload progress bar; once every byte is sent it says the server is processing. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(value * 100);
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-ink-300">
        <span>{percent >= 100 ? 'Processing…' : label}</span>
        <span>{percent}%</span>
      </div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 overflow-hidden rounded-full bg-ink-700">
        <div className="h-full rounded-full bg-brand-500 transition-[width] duration-150" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The line that says where the upload stands; an unknown state says so. */
function StatusLine({ noun, state }: { noun: Noun; state: TextureUploadState }) {
  const is = noun.plural ? 'are' : 'is';
  switch (state.status) {
    case 'waiting':
      return null;
    case 'confirming':
      return <p className="text-sm text-ink-300">Looks good! Check the 3D preview, then upload {noun.plural ? 'them' : 'it'}.</p>;
    case 'uploading':
      return <ProgressBar value={state.progress} label={`Uploading your ${noun.singular}…`} />;
    case 'uploaded':
      return (
        <p className="rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200" data-testid="upload-success">
          <strong>Done!</strong> Your {noun.singular} {is} uploaded. Everyone running the mod will see {noun.plural ? 'them' : 'it'}.
        </p>
      );
    case 'failed':
      return null;
    default:
      return (
        <p role="alert" className="text-sm text-red-200">
          Something went wrong with the state
        </p>
      );
  }
}

/** The remove link, with a confirmation dialog (removing is destructive). */
function RemoveLink({ noun, disabled, onConfirm }: { noun: Noun; disabled: boolean; onConfirm: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button
        type="button"
        className="self-start text-sm font-semibold text-red-300 underline decoration-red-300/40 underline-offset-4 hover:text-red-200 disabled:cursor-not-allowed disabled:opacity-50"
        onClick={() => dialogRef.current?.showModal()}
        disabled={disabled}
      >
        Remove my {noun.singular}
      </button>
      <dialog ref={dialogRef} className="modal" aria-labelledby={titleId}>
        <h2 id={titleId} className="text-xl font-bold">
          Remove your {noun.singular}?
        </h2>
        <p className="mt-3 text-ink-300">
          Everyone running the mod will see you without {noun.plural ? 'them' : 'it'}. This can't be undone: to get {noun.plural ? 'them' : 'it'} back you
          will have to upload the file again.
        </p>
        <form method="dialog" className="mt-6 flex justify-end gap-3">
          <button className="btn-secondary" value="cancel" autoFocus>
            Keep {noun.plural ? 'them' : 'it'}
          </button>
          <button className="btn-danger" value="remove" onClick={onConfirm}>
            Remove
          </button>
        </form>
      </dialog>
    </>
  );
}

/** Everything an upload page shows, around its kind-specific 3D preview. */
export function UploadPanel({
  kind,
  noun,
  upload,
  saved,
  preview,
  notice,
}: {
  kind: TextureKind;
  noun: Noun;
  upload: ReturnType<typeof useTextureUpload>;
  /** The saved texture of this page's kind (what Cancel restores). */
  saved: CapeTexture | string | null;
  /** The 3D preview. */
  preview: ReactNode;
  /** A kind-specific note shown while a file is held. */
  notice?: ReactNode;
}) {
  const { state, pickFile, upload: send, cancel, remove } = upload;
  const holding = isHoldingFile(state.status);
  const uploadButtonRef = useRef<HTMLButtonElement>(null);
  const savedUrl = saved === null ? null : typeof saved === 'string' ? saved : saved.kind === 'frames' ? null : saved.url;
  const savedIsStrip = typeof saved === 'object' && saved?.kind === 'strip';

  // A file that passed the checks moves the keyboard focus to Upload.
  useEffect(() => {
    if (state.status === 'confirming') uploadButtonRef.current?.focus();
  }, [state.status]);

  usePreventWindowDrop();

  return (
    <div className="grid gap-6 lg:grid-cols-2" data-testid="upload-panel" data-state={state.status}>
      <section className="card flex min-w-0 flex-col gap-5" aria-label={`Upload your ${noun.singular}`}>
        <DropZone kind={kind} noun={noun} holding={holding} checking={state.checking} onFile={pickFile} />
        <FilePreview noun={noun} state={state} savedUrl={savedUrl} savedIsStrip={savedIsStrip} />
        {holding && (
          <div className="flex flex-wrap gap-3">
            <button ref={uploadButtonRef} type="button" className="btn-primary min-w-32 flex-1 py-3" onClick={send} disabled={state.status !== 'confirming'}>
              {state.status === 'uploading' ? 'Uploading…' : 'Upload'}
            </button>
            <button type="button" className="btn-secondary min-w-32 py-3" onClick={cancel} disabled={state.status !== 'confirming'}>
              Cancel
            </button>
          </div>
        )}
        {holding && notice}
        <div aria-live="polite" className="empty:hidden">
          <StatusLine noun={noun} state={state} />
        </div>
        <ErrorDisplay error={state.error} />
        {savedUrl && state.status === 'waiting' && <RemoveLink noun={noun} disabled={state.removing} onConfirm={remove} />}
        {state.removing && (
          <p className="text-sm text-ink-300" role="status">
            Removing your {noun.singular}…
          </p>
        )}
      </section>
      <section className="card min-w-0" aria-label="3D preview">
        <h2 className="mb-3 text-sm font-semibold tracking-widest text-ink-300 uppercase">Preview</h2>
        {preview}
      </section>
    </div>
  );
}

/** Keeps a file dropped beside the drop zone from making the browser leave the page. */
export function usePreventWindowDrop(): void {
  useEffect(() => {
    const stop = (event: Event) => event.preventDefault();
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
}
