// Submitting a gallery title-and-tags form (edit, share a creator's cape): the title and tags check first, then the
// call, with a busy flag and the error display.
import { useState } from 'react';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/client/api-errors';
import { checkGalleryFields } from '../../lib/gallery-rules';

/**
 * The form's busy flag and error, and `submit`, which checks the title and tags and then runs `send` with the trimmed
 * title.
 */
export function useGalleryFieldsSubmit(send: (title: string, tags: string[]) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplay | null>(null);
  const submit = async (title: string, tags: string[]) => {
    const problem = checkGalleryFields(title, tags);
    if (problem) {
      setError({ kind: 'message', message: problem });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await send(title.trim(), tags);
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}
