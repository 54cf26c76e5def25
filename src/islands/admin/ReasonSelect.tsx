// The reason picker of the admin actions that need one (ban, remove), listing GET /api/admin/banreasons.
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/client/api';

/** Loads the ban and removal reasons once (an empty list when they cannot be read). */
export function useBanReasons(): Record<string, string> {
  const [reasons, setReasons] = useState<Record<string, string>>({});
  useEffect(() => {
    apiCall('banReasons').then(setReasons, () => setReasons({}));
  }, []);
  return reasons;
}

/** A labelled select of the reasons, with an empty "Choose a reason" first. */
export function ReasonSelect({
  reasons,
  value,
  onChange,
}: {
  reasons: Record<string, string>;
  value: string;
  onChange: (key: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      Reason
      <select
        className="rounded-lg border border-ink-600 bg-ink-950 px-3 py-2"
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
  );
}
