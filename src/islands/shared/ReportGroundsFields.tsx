// The reason and note of a report, shared by the gallery and player report forms: a reason from the ban reasons list
// and an optional note with a count of what is left.
import { useId, useState } from 'react';
import { BAN_REASONS } from '../../lib/ban-reasons';
import { REPORT_NOTE_MAX, type ReportGrounds } from '../../lib/report-rules';

/** The state of a report's reason and note; `grounds` is null until a reason is chosen. */
export function useReportGrounds() {
  const [reasonKey, setReasonKey] = useState('');
  const [note, setNote] = useState('');
  const grounds: ReportGrounds | null = reasonKey ? { reasonKey, note: note.trim() || null } : null;
  return { reasonKey, setReasonKey, note, setNote, grounds };
}

/** The labelled reason select and note box; `compact` suits the narrow gallery card, `autoFocus` focuses the reason. */
export function ReportGroundsFields({
  state,
  compact = false,
  autoFocus = false,
}: {
  state: ReturnType<typeof useReportGrounds>;
  compact?: boolean;
  autoFocus?: boolean;
}) {
  const countId = useId();
  const field = `rounded-lg border border-ink-600 bg-ink-950 text-ink-100 focus:border-brand-400 focus:outline-none ${compact ? 'px-2 py-1.5 text-sm' : 'px-3 py-2'}`;
  const label = `flex flex-col gap-1 ${compact ? 'text-sm' : ''} text-ink-200`;
  return (
    <>
      <label className={label}>
        Reason
        <select
          name="reason"
          required
          autoFocus={autoFocus}
          className={field}
          value={state.reasonKey}
          onChange={(event) => state.setReasonKey(event.target.value)}
        >
          <option value="">Choose a reason</option>
          {Object.entries(BAN_REASONS).map(([key, text]) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        <span>
          Note <span className="text-ink-300">(optional)</span>
        </span>
        <textarea
          name="note"
          rows={compact ? 2 : 3}
          maxLength={REPORT_NOTE_MAX}
          aria-describedby={countId}
          className={`${field} resize-y`}
          value={state.note}
          onChange={(event) => state.setNote(event.target.value)}
        />
        <span id={countId} className="self-end text-xs text-ink-300">
          {state.note.length}/{REPORT_NOTE_MAX}
        </span>
      </label>
    </>
  );
}
