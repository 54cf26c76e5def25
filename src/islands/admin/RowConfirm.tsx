// A row's action that asks first, in place: its button, then the confirming button and Cancel, the step the admin lists
// keep with `usePagedList`'s `confirming`.

/** What the step says and does; `inColumn` for a row laid out as a column (a card) rather than a table cell. */
interface RowConfirmProps {
  /** Whether this row's step is open. */
  asking: boolean;
  busy: boolean;
  /** The action button's text. */
  label: string;
  /** The confirming button's text, and its text while the action runs. */
  confirmLabel: string;
  busyLabel: string;
  inColumn?: boolean;
  onAsk: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The action button, or, once pressed, the confirming button and Cancel. */
export function RowConfirm({
  asking,
  busy,
  label,
  confirmLabel,
  busyLabel,
  inColumn = false,
  onAsk,
  onConfirm,
  onCancel,
}: RowConfirmProps) {
  if (!asking) {
    return (
      <button
        type="button"
        className={inColumn ? 'btn-secondary self-start px-3 py-1' : 'btn-secondary px-3 py-1'}
        onClick={onAsk}
      >
        {label}
      </button>
    );
  }
  return (
    <span className={inColumn ? 'flex flex-wrap gap-2' : 'inline-flex flex-wrap gap-2'}>
      <button type="button" className="btn-danger px-3 py-1" disabled={busy} onClick={onConfirm}>
        {busy ? busyLabel : confirmLabel}
      </button>
      <button type="button" className="btn-secondary px-3 py-1" disabled={busy} onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}
