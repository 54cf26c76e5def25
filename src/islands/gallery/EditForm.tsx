// The texture page's edit state: title (same character filter, at most 20) and tag chips, with Save and Cancel.
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { editItem, type GalleryItem } from './gallery-api';
import { TitleAndTagsFields, useTitleAndTags } from './TitleAndTagsFields';
import { useGalleryFieldsSubmit } from './useGalleryFieldsSubmit';

/** The edit form; `onSaved` runs after the server accepted the change. */
export function EditForm({
  item,
  onSaved,
  onCancel,
}: {
  item: GalleryItem;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { title, selected, fields } = useTitleAndTags(
    item.title,
    item.tags.map((tag) => tag.tag_key),
  );
  const { busy, error, submit } = useGalleryFieldsSubmit(async (trimmed, keys) => {
    await editItem(item.hash, trimmed, keys);
    onSaved();
  });
  const save = () => submit(title, selected);

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
      <TitleAndTagsFields {...fields} busy={busy} autoFocus />
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
