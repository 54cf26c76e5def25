// What a reporter gave as grounds, as both report queues show it: the reason and the note, if any.

/** The reporter's reason and note (reports filed before reasons existed have neither). */
export function ReportGrounds({ reason, note }: { reason: string | null; note: string | null }) {
  if (!reason && !note) return null;
  return (
    <div className="mt-2 text-sm" data-testid="report-grounds">
      {reason && (
        <p>
          <span className="text-ink-300">Reason:</span> <span className="font-semibold">{reason}</span>
        </p>
      )}
      {note && (
        <blockquote className="mt-1 border-l-2 border-ink-600 pl-3 break-words whitespace-pre-wrap text-ink-200">
          <span className="sr-only">Reporter's note: </span>
          {note}
        </blockquote>
      )}
    </div>
  );
}
