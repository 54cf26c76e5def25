// The shared error display: one message after "Error:" (and its link), or the first message of each field; always text,
// never HTML.
import type { ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';

/** Shows an API error in a red box; renders nothing without an error. */
export function ErrorDisplay({ error }: { error: ErrorDisplayValue | null }) {
  if (!error) return null;
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-500/50 bg-red-500/10 px-4 py-3 text-sm text-red-200">
      {error.kind === 'message' ? (
        <p>
          <strong>Error:</strong> {error.message}
          {error.link && (
            <>
              {' '}
              <a href={error.link.href} target="_blank" rel="noopener noreferrer" className="underline">
                {error.link.label}
              </a>
              .
            </>
          )}
        </p>
      ) : (
        <ul className="list-disc pl-5">
          {error.messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
