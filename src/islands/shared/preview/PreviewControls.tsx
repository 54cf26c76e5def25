// The controls under the 3D preview: the Elytra switch (when offered) and the Turn around button.

/** What the controls show and do. */
interface PreviewControlsProps {
  /** Offers the Elytra switch. */
  elytraToggle: boolean;
  elytra: boolean;
  onElytraChange: (elytra: boolean) => void;
  /** Whether there is a cape to wear as an elytra. */
  capeReady: boolean;
  /** Whether the viewer runs (the button turns the player). */
  viewerReady: boolean;
  onTurnAround: () => void;
}

/** The Elytra switch and the Turn around button. */
export function PreviewControls({
  elytraToggle,
  elytra,
  onElytraChange,
  capeReady,
  viewerReady,
  onTurnAround,
}: PreviewControlsProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      {elytraToggle ? (
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-semibold select-none">
          <input
            type="checkbox"
            role="switch"
            className="peer sr-only"
            checked={elytra}
            onChange={(event) => onElytraChange(event.target.checked)}
            disabled={!capeReady}
          />
          <span
            aria-hidden="true"
            className="relative h-6 w-11 rounded-full bg-ink-600 transition-colors peer-checked:bg-brand-500 peer-disabled:opacity-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-400 after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-5"
          />
          Elytra
        </label>
      ) : (
        <span />
      )}
      <button
        type="button"
        className="btn-secondary px-3 py-1.5 text-sm"
        onClick={onTurnAround}
        disabled={!viewerReady}
      >
        ↻ Turn around
      </button>
    </div>
  );
}
