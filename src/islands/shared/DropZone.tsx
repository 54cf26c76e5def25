// The drop zone and file picker of the upload pages and the gallery upload, and the guard that keeps a stray drop from
// leaving the page.
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useHydrated } from './useClientValue';

/** The page's words for its texture ("cape", "ears", "texture") and whether they take a plural verb. */
export interface Noun {
  singular: string;
  plural: boolean;
}

/** The files a drop zone takes: the picker's accept attribute and the types it describes to the player. */
export interface FileTypes {
  accept: string;
  typesLabel: string;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The drop zone with its keyboard-accessible file picker; files are ignored while one is held (the upload pages and the
 * gallery upload).
 */
export function DropZone({
  kind,
  noun,
  holding,
  checking,
  onFile,
}: {
  kind: FileTypes;
  noun: Noun;
  holding: boolean;
  checking: boolean;
  onFile: (file: File | undefined) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // Before the island hydrates, a picked file would be lost: the picker waits for the script.
  const hydrated = useHydrated();
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
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-10 w-10 text-brand-400"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M12 16V4m0 0-4 4m4-4 4 4" />
        <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      </svg>
      <p className="text-lg font-semibold">
        {holding
          ? `Upload or cancel ${noun.plural ? 'these' : 'this'} ${noun.singular} first`
          : `Drop your ${noun.singular} here`}
      </p>
      <button
        type="button"
        className="btn-primary"
        onClick={() => inputRef.current?.click()}
        disabled={!hydrated || holding || checking}
        aria-describedby={hintId}
      >
        {checking ? (
          <>
            <span
              className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent"
              aria-hidden="true"
            />{' '}
            Checking…
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
        disabled={!hydrated}
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
