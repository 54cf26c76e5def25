// The texture page's edit state: title (same character filter, at most 20) and tag chips, with Save and Cancel.
import { useState } from 'react';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { checkGalleryTitle, galleryMessages } from '../../lib/gallery-rules';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { editItem, type GalleryItem } from './gallery-api';
import { useTags } from './TagChips';
import { TitleAndTagsFields } from './TitleAndTagsFields';

/** The edit form; `onSaved` runs after the server accepted the change. */
export function EditForm({ item, onSaved, onCancel }: { item: GalleryItem; onSaved: () => void; onCancel: () => void }) {
  const tags = useTags();
  const [title, setTitle] = useState(item.title);
  const [selected, setSelected] = useState(item.tags.map((tag) => tag.tag_key));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

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
      <TitleAndTagsFields title={title} onTitle={setTitle} tags={tags} selected={selected} onSelected={setSelected} busy={busy} autoFocus />
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
