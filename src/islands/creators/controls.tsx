// The creators' form controls: a labelled field, a picture picker, the scale choice, colour pickers, switches and
// sliders.
import { useId, type ReactNode } from 'react';
import {
  capeWidthForScale,
  CREATOR_MAX_SCALE,
  CREATOR_MIN_SCALE,
  SLIDER_MAX,
  SLIDER_MIN,
} from '../../lib/creator-rules';

/** The style of the creators' text boxes and selects. */
export const INPUT_CLASS =
  'w-full rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 placeholder:text-ink-600 focus:border-brand-400 focus:outline-none disabled:opacity-60';

/** A label above a control, with an optional hint below it. */
export function Field({
  label,
  hint,
  children,
  htmlFor,
}: {
  label: string;
  hint?: ReactNode;
  children: ReactNode;
  htmlFor: string;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-semibold">
        {label}
      </label>
      {children}
      {hint && <p className="mt-1 text-xs text-ink-400">{hint}</p>}
    </div>
  );
}

/** A picture picker with a hint, and a clear message when the picked file is refused. */
export function PicturePicker({
  label,
  accept,
  hint,
  problem,
  onFile,
}: {
  label: string;
  accept: string;
  hint: string;
  problem: string | null;
  onFile: (file: File | null) => void;
}) {
  const id = useId();
  return (
    <Field label={label} htmlFor={id} hint={problem ? undefined : hint}>
      <input
        id={id}
        type="file"
        accept={accept}
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        className="block w-full text-sm text-ink-300 file:mr-3 file:rounded-lg file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:font-semibold file:text-ink-100 hover:file:bg-ink-600"
      />
      {problem && (
        <p role="alert" className="mt-1 text-sm text-red-300">
          {problem}
        </p>
      )}
    </Field>
  );
}

/** The scale select: 1..6, each with the cape's size. */
export function ScaleSelect({ scale, onScale }: { scale: number; onScale: (scale: number) => void }) {
  const id = useId();
  const scales = Array.from(
    { length: CREATOR_MAX_SCALE - CREATOR_MIN_SCALE + 1 },
    (_, index) => CREATOR_MIN_SCALE + index,
  );
  return (
    <Field label="Scale" htmlFor={id}>
      <select id={id} value={scale} onChange={(event) => onScale(Number(event.target.value))} className={INPUT_CLASS}>
        {scales.map((value) => (
          <option key={value} value={value}>
            {value}: {capeWidthForScale(value)} × {capeWidthForScale(value) / 2}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A colour picker with its hex value shown. */
export function ColourField({
  label,
  colour,
  onColour,
  disabled,
}: {
  label: string;
  colour: string;
  onColour: (colour: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <Field label={label} htmlFor={id}>
      <div className="flex items-center gap-3">
        <input
          id={id}
          type="color"
          value={colour}
          disabled={disabled}
          onChange={(event) => onColour(event.target.value)}
          className="h-10 w-14 cursor-pointer rounded border border-ink-600 bg-ink-950 disabled:cursor-not-allowed disabled:opacity-50"
        />
        <code className="text-sm text-ink-300">{colour}</code>
      </div>
    </Field>
  );
}

/** A labelled checkbox. */
export function Switch({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="h-4 w-4"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}

/** A -100..100 slider with its value. */
export function Slider({ label, value, onValue }: { label: string; value: number; onValue: (value: number) => void }) {
  const id = useId();
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm">
        <label htmlFor={id} className="font-semibold">
          {label}
        </label>
        <output htmlFor={id} className="text-ink-300">
          {value}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={SLIDER_MIN}
        max={SLIDER_MAX}
        step={1}
        value={value}
        onChange={(event) => onValue(Number(event.target.value))}
        className="w-full"
      />
    </div>
  );
}
