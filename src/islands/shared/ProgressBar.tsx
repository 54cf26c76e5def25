// The upload progress bar of the upload pages and the gallery upload.

/** The upload progress bar; once every byte is sent it says the server is processing. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(value * 100);
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-ink-300">
        <span>{percent >= 100 ? 'Processing…' : label}</span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-ink-700"
      >
        <div
          className="h-full rounded-full bg-brand-500 transition-[width] duration-150"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
