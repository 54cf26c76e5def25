// The title box (character filter, at most 20, with a counter) and tag chips, shared by the upload and edit forms.
import { useId, useState, type Ref } from 'react';
import { cleanTitle, GALLERY_TITLE_MAX } from '../../lib/gallery-rules';
import type { Tag } from '../../lib/schemas/types';
import { TagChips, useTags } from './TagChips';

/** What the fields show and where their changes go. */
export interface TitleAndTagsProps {
  title: string;
  onTitle: (title: string) => void;
  tags: Tag[] | null | 'failed';
  selected: string[];
  onSelected: (keys: string[]) => void;
  busy: boolean;
  autoFocus?: boolean;
  placeholder?: string;
  titleRef?: Ref<HTMLInputElement>;
}

/**
 * The fields' state: the gallery's tags, the title and the chosen tag keys, starting from `initialTitle` and
 * `initialKeys`; `fields` is what TitleAndTagsFields shows and changes.
 */
export function useTitleAndTags(initialTitle = '', initialKeys: string[] = []) {
  const tags = useTags();
  const [title, setTitle] = useState(initialTitle);
  const [selected, setSelected] = useState(initialKeys);
  return { title, selected, fields: { title, onTitle: setTitle, tags, selected, onSelected: setSelected } };
}

/** Renders the title and tag fields of a gallery form. */
export function TitleAndTagsFields({
  title,
  onTitle,
  tags,
  selected,
  onSelected,
  busy,
  autoFocus,
  placeholder,
  titleRef,
}: TitleAndTagsProps) {
  const titleId = useId();
  const hintId = useId();
  return (
    <>
      <div>
        <label htmlFor={titleId} className="mb-1.5 block text-sm font-semibold">
          Title
        </label>
        <input
          ref={titleRef}
          id={titleId}
          value={title}
          onChange={(event) => onTitle(cleanTitle(event.target.value))}
          aria-describedby={hintId}
          disabled={busy}
          autoComplete="off"
          autoFocus={autoFocus}
          placeholder={placeholder}
          className="w-full rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 placeholder:text-ink-600 focus:border-brand-400 focus:outline-none disabled:opacity-60"
        />
        <p id={hintId} className="mt-1 flex justify-between gap-3 text-xs text-ink-300">
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
        <TagChips tags={tags} selected={selected} onChange={onSelected} label="Tags" disabled={busy} />
      </div>
    </>
  );
}
