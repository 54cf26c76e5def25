// Tag chips: the gallery's tags as toggle chips (checkboxes), for the search sidebar, the upload form and the edit
// form.
import { useEffect, useState } from 'react';
import { fetchTags, type Tag } from './gallery-api';

/** The gallery's tags: null while loading, 'failed' when they could not be loaded. */
export function useTags(): Tag[] | null | 'failed' {
  const [tags, setTags] = useState<Tag[] | null | 'failed'>(null);
  useEffect(() => {
    let live = true;
    fetchTags().then(
      (list) => live && setTags(list),
      () => live && setTags('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  return tags;
}

/** The chips; each toggles one tag key in `selected`. */
export function TagChips({
  tags,
  selected,
  onChange,
  label,
  disabled = false,
  describedBy,
}: {
  tags: Tag[] | null | 'failed';
  selected: readonly string[];
  onChange: (keys: string[]) => void;
  label: string;
  disabled?: boolean;
  describedBy?: string;
}) {
  if (tags === null) {
    return (
      <div className="flex flex-wrap gap-2" aria-busy="true" aria-label={label}>
        {[56, 72, 48, 64, 80, 52].map((width, index) => (
          <span key={index} className="h-7 animate-pulse rounded-full bg-ink-800" style={{ width }} />
        ))}
      </div>
    );
  }
  if (tags === 'failed')
    return <p className="text-sm text-amber-200">The tags didn't load. Reload the page to try again.</p>;

  const toggle = (key: string, on: boolean) =>
    onChange(on ? [...selected.filter((k) => k !== key), key] : selected.filter((k) => k !== key));
  return (
    <div
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
      className="flex flex-wrap gap-2"
      data-testid="tag-chips"
    >
      {tags.map((tag) => {
        const on = selected.includes(tag.tag_key);
        return (
          <label key={tag.tag_key} className={disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer'}>
            <input
              type="checkbox"
              className="peer sr-only"
              checked={on}
              disabled={disabled}
              onChange={(event) => toggle(tag.tag_key, event.target.checked)}
            />
            <span
              className={`inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm font-medium transition-colors select-none peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-400 ${
                on
                  ? 'border-brand-400 bg-brand-500/20 text-ink-100'
                  : 'border-ink-600 text-ink-300 hover:border-ink-300 hover:text-ink-100'
              }`}
            >
              {on && (
                <svg
                  aria-hidden="true"
                  viewBox="0 0 16 16"
                  className="h-3.5 w-3.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d="m3.5 8.5 3 3 6-7" />
                </svg>
              )}
              {tag.name}
            </span>
          </label>
        );
      })}
    </div>
  );
}
