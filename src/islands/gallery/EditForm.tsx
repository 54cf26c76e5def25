// The texture page's edit state: title (same character filter, at most 20) and tag chips, with Save and Cancel.
import { useId, useState } from 'react';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { checkGalleryTitle, GALLERY_TITLE_MAX, galleryMessages } from '../../lib/gallery-rules';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { cleanTitle } from './filters';
import { editItem, type GalleryItem } from './gallery-api';
import { TagChips, useTags } from './TagChips';

/** The edit form; `onSaved` runs after the server accepted the change. */
export function EditForm({ item, onSaved, onCancel }: { item: GalleryItem; onSaved: () => void; onCancel: () => void }) {
  const tags = useTags();
  const [title, setTitle] = useState(item.title);
  const [selected, setSelected] = useState(item.tags.map((tag) => tag.tag_key));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const titleId = useId();
  const hintId = useId();

  const save = async () => {
    const problem = selected.length === 0 ? galleryMessages.missingFields : checkGalleryTitle(title);
    if (problem) {
      setError({ kind: 'message', message: problem });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await editItem(item.hash, title.trim(), selected);
      onSaved();
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-4"
      data-testid="edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !busy) onCancel();
      }}
    >
      <div>
        <label htmlFor={titleId} className="mb-1.5 block text-sm font-semibold">
          Title
        </label>
        <input
          id={titleId}
          value={title}
          maxLength={GALLERY_TITLE_MAX}
          onChange={(event) => setTitle(cleanTitle(event.target.value))}
          aria-describedby={hintId}
          autoComplete="off"
          autoFocus
          className="w-full rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 focus:border-brand-400 focus:outline-none"
        />
        <p id={hintId} className="mt-1 flex justify-between text-xs text-ink-300">
          <span>Letters, numbers, underscores and spaces.</span>
          <span>
            {title.length}/{GALLERY_TITLE_MAX}
          </span>
        </p>
      </div>
      <div>
        <p className="mb-1.5 text-sm font-semibold" aria-hidden="true">
          Tags <span className="font-normal text-ink-300">(at least one)</span>
        </p>
        <TagChips tags={tags} selected={selected} onChange={setSelected} label="Tags" disabled={busy} />
      </div>
      <ErrorDisplay error={error} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary min-w-28" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn-secondary min-w-28" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
