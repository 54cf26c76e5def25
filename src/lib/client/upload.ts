// File uploads with progress (XMLHttpRequest, since fetch reports no upload progress), with the API client's cookies,
// XSRF header (sent once more with a fresh token when the API refuses it, as the client does) and app-wide status
// handling (401, 503, 408).
import type { z } from 'zod';
import { API_CALLS } from '../api-calls';
import { API_OPTIONS, API_URL, ensureXsrfToken, handleAppStatus, XSRF_REFUSED_STATUS, type ApiAnswer } from './api';
import type { uploadRefusalSchema } from '../schemas/uploads';

/** The calls that send a file: the cape and ears uploads, the gallery upload and the creators that take a picture. */
export type UploadCallName = 'uploadCape' | 'uploadEars' | 'galleryUpload' | 'imageCape' | 'animatedCape';

/**
 * What an upload answered: the HTTP status (0 when no response arrived) and the parsed JSON body; `ok` when the status
 * is 2xx and the body a JSON object, which is then the call's answer (else the body is a refusal, or undefined when
 * there was none).
 */
export type UploadResponse<Name extends UploadCallName> =
  { ok: true; status: number; body: ApiAnswer<Name> } | { ok: false; status: number; body: unknown };

/** An upload the texture rules refused: `success: false` and the failed rule's message. */
export type UploadRefusal = z.output<typeof uploadRefusalSchema>;

/** Options of {@link uploadFile}. */
export interface UploadOptions {
  /** The multipart field that carries the file; `file` by default. */
  field?: string;
  /** Text fields sent before the file (e.g. a gallery upload's title and tags). */
  fields?: Record<string, string>;
  /** More files sent after the main one, by field name (e.g. the animated creator's background). */
  extraFiles?: Record<string, Blob>;
  /** Called with the fraction (0…1) of the request body sent so far. */
  onProgress?: (fraction: number) => void;
  /** Aborts the upload; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
  /** Milliseconds before the upload counts as timed out (API-offline modal). */
  timeoutMs?: number;
}

/** How long an upload may take before it counts as timed out. */
export const UPLOAD_TIMEOUT_MS = 60_000;

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * POSTs one file as multipart/form-data with an upload call, reporting upload progress; resolves for every HTTP answer
 * and with status 0 when none came. An upload refused for its XSRF token (the API's cookie expired or changed since the
 * page read it) is sent once more with a fresh token.
 */
export async function uploadFile<Name extends UploadCallName>(
  call: Name,
  file: Blob,
  options: UploadOptions = {},
): Promise<UploadResponse<Name>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append(options.field ?? 'file', file, file instanceof File ? file.name : 'texture');
  for (const [name, extra] of Object.entries(options.extraFiles ?? {}))
    form.append(name, extra, extra instanceof File ? extra.name : name);

  const answer = await sendForm(call, form, options);
  if (answer.status !== XSRF_REFUSED_STATUS) return answer;
  API_OPTIONS.keepXsrfToken?.(undefined);
  return sendForm(call, form, options);
}

/** Sends an upload's form once with the current XSRF token (asking the API for one first when there is none). */
async function sendForm<Name extends UploadCallName>(
  call: Name,
  form: FormData,
  options: UploadOptions,
): Promise<UploadResponse<Name>> {
  const token = await ensureXsrfToken(API_OPTIONS);
  if (options.signal?.aborted) throw new DOMException('The upload was aborted', 'AbortError');
  return new Promise<UploadResponse<Name>>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(API_CALLS[call].method, `${API_URL}${API_CALLS[call].path}`);
    request.withCredentials = true;
    request.timeout = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    request.setRequestHeader('accept', 'application/json');
    if (token) request.setRequestHeader('x-xsrf-token', token);

    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(1, event.loaded / event.total));
    };
    request.upload.onload = () => options.onProgress?.(1);
    request.onload = () => {
      const body = parseBody(request.responseText);
      handleAppStatus(request.status, API_OPTIONS, true, body);
      const ok = request.status >= 200 && request.status < 300 && typeof body === 'object' && body !== null;
      resolve(
        ok
          ? { ok, status: request.status, body: body as ApiAnswer<Name> }
          : { ok: false, status: request.status, body },
      );
    };
    const noAnswer = () => {
      API_OPTIONS.onOffline();
      resolve({ ok: false, status: 0, body: undefined });
    };
    request.onerror = noAnswer;
    request.ontimeout = noAnswer;
    request.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });

    request.send(form);
  });
}
