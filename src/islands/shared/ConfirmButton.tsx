// A button for a destructive action that asks first: a modal dialog (the native <dialog>: focus moves into it, onto the
// safe choice, and Escape cancels) named by its title and described by its text; the action runs only on confirming.
import { useId, useRef, type ReactNode } from 'react';

/** What the button and its dialog say, and the action confirming runs. */
interface ConfirmButtonProps {
  /** The button's text. */
  label: string;
  /**
   * The button's name for screen readers when the text alone does not say which thing it acts on (it starts with the
   * text, so speech input still finds it).
   */
  accessibleName?: string;
  className: string;
  disabled?: boolean;
  /** The dialog's heading: the question. */
  title: string;
  /** What happens if the action goes ahead. */
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
}

/** A button that opens a confirmation dialog; `onConfirm` runs only when the confirming button is pressed. */
export function ConfirmButton({
  label,
  accessibleName,
  className,
  disabled = false,
  title,
  children,
  cancelLabel,
  confirmLabel,
  onConfirm,
}: ConfirmButtonProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => dialogRef.current?.showModal()}
        disabled={disabled}
        aria-label={accessibleName}
      >
        {label}
      </button>
      <dialog ref={dialogRef} className="modal" aria-labelledby={titleId} aria-describedby={textId}>
        <h2 id={titleId} className="text-xl font-bold">
          {title}
        </h2>
        <p id={textId} className="mt-3 text-ink-300">
          {children}
        </p>
        <form method="dialog" className="mt-6 flex flex-wrap justify-end gap-3">
          <button className="btn-secondary" value="cancel" autoFocus>
            {cancelLabel}
          </button>
          <button className="btn-danger" value="confirm" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </form>
      </dialog>
    </>
  );
}
