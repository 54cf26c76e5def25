// The keyboard focus around an item's steps (report, delete, edit): the button that opened a step gets the focus back
// when the item returns to waiting, even when that button was drawn afresh (the texture page hides its buttons during
// a step).
import { useEffect, useRef } from 'react';
import type { ItemState } from './useItemActions';

/** The buttons that open an item's steps. */
export type StepOpener = 'report' | 'delete' | 'edit';

/** Where the step buttons are and which one opened the step; focuses it again once `state` is back to waiting. */
export function useStepFocus(state: ItemState) {
  const buttons = useRef(new Map<StepOpener, HTMLButtonElement>());
  const opener = useRef<StepOpener | null>(null);

  useEffect(() => {
    if (state !== 'waiting' || opener.current === null) return;
    buttons.current.get(opener.current)?.focus();
    opener.current = null;
  }, [state]);

  return {
    /** The ref of the button that opens a step. */
    buttonRef: (step: StepOpener) => (element: HTMLButtonElement | null) => {
      if (element) buttons.current.set(step, element);
      else buttons.current.delete(step);
    },
    /** Notes the button and opens its step. */
    open: (step: StepOpener, openStep: () => void) => {
      opener.current = step;
      openStep();
    },
  };
}
