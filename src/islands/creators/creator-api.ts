// The creators' calls from the browser: make a cape (JSON answer with its URLs), wear it, share it to the gallery.
import { api, apiCall, type ApiAnswer } from '../../lib/client/api';
import { uploadFile } from '../../lib/client/upload';

/** A cape the server made: its texture hash, cape and preview URLs, size, frame count and an optional note. */
export type Creation = ApiAnswer<'headCape'>;

/** A failed creator call: the HTTP status (0 when no answer came) and the answer's body. */
export class CreationFailed extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`The creator answered ${status}`);
  }
}

/** Asks a creator whose settings are in the path (made by apiPath) for a cape, as JSON. */
export async function requestCreation(path: string, signal: AbortSignal): Promise<Creation> {
  try {
    return await api<Creation>(path, { method: 'POST', headers: { accept: 'application/json' }, signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError' || signal.aborted) throw error;
    const failure = error as { status?: number; data?: unknown };
    throw new CreationFailed(failure.status ?? 0, failure.data);
  }
}

/** Sends a creator's form with its pictures (upload progress reported) and resolves with the cape. */
export async function uploadCreation(
  call: 'imageCape' | 'animatedCape',
  files: Record<string, Blob>,
  fields: Record<string, string>,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<Creation> {
  const [first, ...others] = Object.entries(files);
  if (!first) throw new CreationFailed(422, undefined);
  const response = await uploadFile(call, first[1], {
    field: first[0],
    fields,
    extraFiles: Object.fromEntries(others),
    signal,
    onProgress,
  });
  if (response.ok) return response.body;
  throw new CreationFailed(response.status, response.body);
}

/** Wears a creator's cape; resolves with the cape URL. */
export function wearCreation(hash: string): Promise<ApiAnswer<'wearCreation'>> {
  return apiCall('wearCreation', { body: { hash } });
}

/** Shares a creator's cape to the gallery with a title and tags; resolves with the item's hash. */
export function shareCreation(hash: string, title: string, tags: string[]): Promise<ApiAnswer<'shareCreation'>> {
  return apiCall('shareCreation', { body: { hash, title, tags } });
}
