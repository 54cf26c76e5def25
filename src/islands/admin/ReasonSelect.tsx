// The reason picker of the moderators' actions that need one (ban, remove, a moderator's gallery Delete), listing GET
// /api/admin/banreasons.
import { useEffect, useId, useState, type Ref } from 'react';
import { apiCall } from '../../lib/client/api';

/** Loads the ban and removal reasons once (an empty list when they cannot be read). */
export function useBanReasons(): Record<string, string> {
  const [reasons, setReasons] = useState<Record<string, string>>({});
  useEffect(() => {
    apiCall('banReasons').then(setReasons, () => setReasons({}));
  }, []);
  return reasons;
}

/**
 * A labelled select of the reasons, with an empty "Choose a reason" first; `error` is said under it, `compact` suits a
 * gallery card, `autoFocus` focuses it when it appears and `ref` reaches the select.
 */
export function ReasonSelect({
  ref,
  reasons,
  value,
  onChange,
  error = null,
  compact = false,
  autoFocus = false,
}: {
  ref?: Ref<HTMLSelectElement>;
  reasons: Readonly<Record<string, string>>;
  value: string;
  onChange: (key: string) => void;
  error?: string | null;
  compact?: boolean;
  autoFocus?: boolean;
}) {
  const errorId = useId();
  return (
    <>
      <label className="flex min-w-0 flex-col gap-1 text-sm">
        Reason
        <select
          ref={ref}
          name="reason"
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`w-full min-w-0 rounded-lg border border-ink-600 bg-ink-950 ${compact ? 'px-2 py-1.5' : 'px-3 py-2'}`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">Choose a reason</option>
          {Object.entries(reasons).map(([key, text]) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-300" data-testid="reason-error">
          {error}
        </p>
      )}
    </>
  );
}
