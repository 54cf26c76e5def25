// The upload page body shared by the cape and ears islands: drop zone and picker, 2D preview, Upload and Cancel,
// progress, messages, the remove link and the 3D preview slot.
import { useEffect, useRef, type ReactNode } from 'react';
import { ConfirmButton } from '../shared/ConfirmButton';
import { DropZone, usePreventWindowDrop, type Noun } from '../shared/DropZone';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ProgressBar } from '../shared/ProgressBar';
import { countOf } from '../../lib/plural';
import type { CapeTexture } from '../shared/preview/images';
import { PickedFile, TextureImage } from '../shared/TextureImage';
import { UploadNotice } from '../shared/UploadNotice';
import { isHoldingFile, type UploadState } from '../shared/useUploadFlow';
import type { TextureKind } from './texture-kinds';
import type { SavedState, useTextureUpload } from './useTextureUpload';

function formatBytes(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} KB`;
}

/** The 2D preview: the held file with its details, else the saved texture, else a note that there is none. */
function FilePreview({
  noun,
  state,
  savedState,
  savedUrl,
  savedIsStrip,
}: {
  noun: Noun;
  state: UploadState;
  savedState: SavedState;
  savedUrl: string | null;
  savedIsStrip: boolean;
}) {
  const held = state.held;
  if (held) {
    const details = [{ label: 'Size', text: `${held.width} × ${held.height} px · ${formatBytes(held.file.size)}` }];
    if (held.frames) details.push({ label: 'Animation', text: `Animated, ${countOf(held.frames.length, 'frame')}` });
    return <PickedFile held={held} alt={`The ${noun.singular} you picked`} details={details} />;
  }
  if (savedState === 'loading') {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center" aria-busy="true">
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
          {savedIsStrip ? ' (animated)' : ''}. Upload{' '}
          {noun.plural ? 'new ones to replace them' : 'a new one to replace it'}.
        </p>
      </div>
    );
  }
  return (
    <p className="text-sm text-ink-300">
      {savedState === 'failed'
        ? `We couldn't load your current ${noun.singular}. You can still upload ${noun.plural ? 'new ones' : 'a new one'}.`
        : `You have no ${noun.singular} yet. Pick a file to see how it looks.`}
    </p>
  );
}

/** The line that says where the upload stands; an unknown state says so. */
function StatusLine({ noun, state }: { noun: Noun; state: UploadState }) {
  const is = noun.plural ? 'are' : 'is';
  switch (state.status) {
    case 'waiting':
      return null;
    case 'confirming':
      return (
        <p className="text-sm text-ink-300">
          Looks good! Check the 3D preview, then upload {noun.plural ? 'them' : 'it'}.
        </p>
      );
    case 'uploading':
      return <ProgressBar value={state.progress} label={`Uploading your ${noun.singular}…`} />;
    case 'uploaded':
      return (
        <p
          className="rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-sm text-green-200"
          data-testid="upload-success"
        >
          <strong>Done!</strong> Your {noun.singular} {is} uploaded. Everyone running the mod will see{' '}
          {noun.plural ? 'them' : 'it'}.
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
  const them = noun.plural ? 'them' : 'it';
  return (
    <ConfirmButton
      label={`Remove my ${noun.singular}`}
      className="self-start text-sm font-semibold text-red-300 underline decoration-red-300/40 underline-offset-4 hover:text-red-200 disabled:cursor-not-allowed disabled:opacity-50"
      disabled={disabled}
      title={`Remove your ${noun.singular}?`}
      cancelLabel={`Keep ${them}`}
      confirmLabel="Remove"
      onConfirm={onConfirm}
    >
      Everyone running the mod will see you without {them}. This can't be undone: to get {them} back you will have to
      upload the file again.
    </ConfirmButton>
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
  const { state, savedState, removing, pickFile, upload: send, cancel, remove } = upload;
  const holding = isHoldingFile(state);
  const uploadButtonRef = useRef<HTMLButtonElement>(null);
  const savedUrl =
    saved === null ? null : typeof saved === 'string' ? saved : saved.kind === 'frames' ? null : saved.url;
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
        <FilePreview
          noun={noun}
          state={state}
          savedState={savedState}
          savedUrl={savedUrl}
          savedIsStrip={savedIsStrip}
        />
        {holding && (
          <div className="flex flex-wrap gap-3">
            <button
              ref={uploadButtonRef}
              type="button"
              className="btn-primary min-w-32 flex-1 py-3"
              onClick={() => void send()}
              disabled={state.status !== 'confirming'}
            >
              {state.status === 'uploading' ? 'Uploading…' : 'Upload'}
            </button>
            <button
              type="button"
              className="btn-secondary min-w-32 py-3"
              onClick={cancel}
              disabled={state.status !== 'confirming'}
            >
              Cancel
            </button>
          </div>
        )}
        {holding && notice}
        <div aria-live="polite" className="empty:hidden">
          <StatusLine noun={noun} state={state} />
          <UploadNotice notice={state.notice} />
        </div>
        <ErrorDisplay error={state.error} />
        {savedUrl && state.status === 'waiting' && <RemoveLink noun={noun} disabled={removing} onConfirm={remove} />}
        {removing && (
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
