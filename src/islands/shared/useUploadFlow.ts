// The upload state machine, one for the cape and ears pages and the gallery upload: waiting → confirming → uploading →
// uploaded | failed → waiting.
import { useCallback, useEffect, useReducer, useRef, type RefObject } from 'react';
import type { ErrorDisplay } from '../../lib/client/api-errors';
import { uploadFile, type UploadCallName, type UploadResponse } from '../../lib/client/upload';
import { checkTextureFile, textureMessageDisplay, type HeldTexture, type TextureChecks } from './texture-files';

/** The upload states: waiting, confirming, uploading, uploaded and failed. */
export type UploadStatus = 'waiting' | 'confirming' | 'uploading' | 'uploaded' | 'failed';

/** Where an upload stands. */
export interface UploadState {
  status: UploadStatus;
  /** The file that passed the checks, from confirming until the page returns to waiting. */
  held: HeldTexture | null;
  /** True while a picked file is being checked. */
  checking: boolean;
  /** Fraction of the upload sent (0…1) while uploading. */
  progress: number;
  /**
   * The message to show: a failed check, a server-reported failure, a request error, or one the page sets (a missing
   * field, a failed removal).
   */
  error: ErrorDisplay | null;
  /**
   * How long uploaded or failed lasts before the page returns to waiting; null after an upload the page moves on from
   * (the file stays held).
   */
  resetAfterMs: number | null;
  /**
   * What the server changed to make the last upload fit (an animation scaled down or cut), readable until the next
   * upload or file.
   */
  notice: string | null;
}

/** How an upload ended: the action that takes uploading to uploaded or failed. */
export type UploadEnd =
  | { type: 'upload-succeeded'; resetAfterMs: number | null; notice?: string | null }
  | { type: 'upload-failed'; error: ErrorDisplay; resetAfterMs: number };

/** What can happen to an upload. */
export type UploadAction =
  | { type: 'check-started' }
  | { type: 'check-failed'; message: string }
  | { type: 'check-passed'; texture: HeldTexture }
  | { type: 'cancel' }
  | { type: 'upload-started' }
  | { type: 'progress'; fraction: number }
  | UploadEnd
  | { type: 'reset' }
  | { type: 'show-message'; error: ErrorDisplay | null };

/** A page's upload before anything is picked. */
export const initialUploadState: UploadState = {
  status: 'waiting',
  held: null,
  checking: false,
  progress: 0,
  error: null,
  resetAfterMs: null,
  notice: null,
};

/**
 * Whether a file is held, so a newly dropped or picked one is ignored: while confirming or uploading, and once uploaded
 * when the page moves on rather than resets.
 */
export function isHoldingFile(state: Pick<UploadState, 'status' | 'resetAfterMs'>): boolean {
  return (
    state.status === 'confirming' ||
    state.status === 'uploading' ||
    (state.status === 'uploaded' && state.resetAfterMs === null)
  );
}

/**
 * The pure transition function of the upload state machine; actions that do not fit the current state change nothing.
 */
export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case 'check-started':
      return isHoldingFile(state) ? state : { ...state, checking: true, error: null, notice: null };
    case 'check-failed':
      // Any check failure shows its message and stays in (or returns to) waiting.
      return isHoldingFile(state)
        ? state
        : { ...state, status: 'waiting', held: null, checking: false, error: textureMessageDisplay(action.message) };
    case 'check-passed':
      return isHoldingFile(state)
        ? state
        : { ...state, status: 'confirming', held: action.texture, checking: false, error: null, progress: 0 };
    case 'cancel':
      // Back to waiting: the page shows what it showed before the file was picked.
      return state.status === 'confirming' ? { ...state, status: 'waiting', held: null, error: null } : state;
    case 'upload-started':
      return state.status === 'confirming'
        ? { ...state, status: 'uploading', progress: 0, error: null, notice: null }
        : state;
    case 'progress':
      return state.status === 'uploading' ? { ...state, progress: Math.max(state.progress, action.fraction) } : state;
    case 'upload-succeeded':
      return state.status === 'uploading'
        ? {
            ...state,
            status: 'uploaded',
            progress: 1,
            resetAfterMs: action.resetAfterMs,
            notice: action.notice ?? null,
          }
        : state;
    case 'upload-failed':
      return state.status === 'uploading'
        ? { ...state, status: 'failed', error: action.error, resetAfterMs: action.resetAfterMs }
        : state;
    case 'reset':
      // The message of a failure stays readable after the reset; the held file goes.
      return state.status === 'uploaded' || state.status === 'failed'
        ? { ...state, status: 'waiting', held: null, progress: 0 }
        : state;
    case 'show-message':
      return { ...state, error: action.error };
    default:
      return state;
  }
}

/** A ref that is true while the component is mounted, for async work that ends after the page has gone. */
export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/**
 * Runs a page's upload: checks picked files against `checks`, sends the held file with progress, and returns to waiting
 * when the outcome's timer runs out.
 */
export function useUploadFlow(checks: TextureChecks) {
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const checkSequence = useRef(0);
  const uploadAbort = useRef<AbortController | null>(null);
  const mounted = useMounted();

  // Leaving the page ends an upload still under way.
  useEffect(() => () => uploadAbort.current?.abort(), []);

  // Uploaded and failed return to waiting on their own, after the time the outcome set.
  useEffect(() => {
    if ((state.status !== 'uploaded' && state.status !== 'failed') || state.resetAfterMs === null) return;
    const timer = window.setTimeout(() => dispatch({ type: 'reset' }), state.resetAfterMs);
    return () => window.clearTimeout(timer);
  }, [state.status, state.resetAfterMs]);

  // A held file's object URL lives as long as it is held.
  useEffect(() => {
    const url = state.held?.url;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [state.held]);

  /** Checks a dropped or picked file; ignored while another file is held. */
  const pickFile = useCallback(
    async (file: File | null | undefined) => {
      if (!file || isHoldingFile(stateRef.current)) return;
      const sequence = ++checkSequence.current;
      dispatch({ type: 'check-started' });
      const result = await checkTextureFile(file, checks);
      if (!mounted.current || sequence !== checkSequence.current || isHoldingFile(stateRef.current)) {
        if (result.ok) URL.revokeObjectURL(result.texture.url);
        return;
      }
      dispatch(
        result.ok
          ? { type: 'check-passed', texture: result.texture }
          : { type: 'check-failed', message: result.message },
      );
    },
    [checks, mounted],
  );

  /** Returns to waiting from confirming. */
  const cancel = useCallback(() => dispatch({ type: 'cancel' }), []);

  /**
   * Sends the held file (with any text `fields`) with an upload call; `settle` reads the answer and says how the upload
   * ended.
   */
  const upload = useCallback(
    async <Name extends UploadCallName>(
      call: Name,
      settle: (response: UploadResponse<Name>) => UploadEnd,
      fields?: Record<string, string>,
    ) => {
      const { status, held } = stateRef.current;
      if (status !== 'confirming' || !held) return;
      dispatch({ type: 'upload-started' });
      const controller = new AbortController();
      uploadAbort.current = controller;
      let response: UploadResponse<Name>;
      try {
        response = await uploadFile(call, held.file, {
          fields,
          signal: controller.signal,
          onProgress: (fraction) => dispatch({ type: 'progress', fraction }),
        });
      } catch {
        return; // Aborted: the page is going away.
      }
      if (mounted.current) dispatch(settle(response));
    },
    [mounted],
  );

  /** Shows a message (or clears it with null) without changing the state. */
  const showMessage = useCallback((error: ErrorDisplay | null) => dispatch({ type: 'show-message', error }), []);

  return { state, stateRef, mounted, pickFile, cancel, upload, showMessage };
}
