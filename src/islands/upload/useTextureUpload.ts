// The upload state machine of SPEC §4 shared by the cape and ears pages: waiting → confirming → uploading → uploaded | failed → waiting.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { api } from '../../lib/api';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/api-client';
import { $user } from '../../lib/session';
import { uploadFile } from '../../lib/upload';
import type { TextureKind } from './texture-kinds';
import { checkTextureFile, fetchSavedTextures, textureMessageDisplay, type HeldTexture, type SavedTextures } from './textures';

/** The states of SPEC §4. */
export type UploadStatus = 'waiting' | 'confirming' | 'uploading' | 'uploaded' | 'failed';

/** Everything an upload page shows. */
export interface TextureUploadState {
  status: UploadStatus;
  /** The file that passed the checks, from confirming until the page returns to waiting. */
  held: HeldTexture | null;
  /** Fraction of the upload sent (0…1) while uploading. */
  progress: number;
  /** The message to show: a failed check, a server-reported failure, a request error or a failed removal. */
  error: ErrorDisplay | null;
  /** The player's saved textures (shown when no file is held; restored on Cancel). */
  saved: SavedTextures;
  savedState: 'loading' | 'ready' | 'failed';
  /** True while a picked file is being checked. */
  checking: boolean;
  /** True while the remove call runs. */
  removing: boolean;
  /** How long uploaded or failed lasts before the page returns to waiting. */
  resetAfterMs: number;
}

type Action =
  | { type: 'saved-loaded'; saved: SavedTextures }
  | { type: 'saved-failed' }
  | { type: 'check-started' }
  | { type: 'check-failed'; message: string }
  | { type: 'check-passed'; texture: HeldTexture }
  | { type: 'cancel' }
  | { type: 'upload-started' }
  | { type: 'progress'; fraction: number }
  | { type: 'upload-succeeded'; saved: SavedTextures; resetAfterMs: number }
  | { type: 'upload-failed'; error: ErrorDisplay; resetAfterMs: number }
  | { type: 'reset' }
  | { type: 'remove-started'; saved: SavedTextures }
  | { type: 'remove-finished'; saved: SavedTextures; error: ErrorDisplay | null };

const initialState: TextureUploadState = {
  status: 'waiting',
  held: null,
  progress: 0,
  error: null,
  saved: { cape: null, ears: null },
  savedState: 'loading',
  checking: false,
  removing: false,
  resetAfterMs: 0,
};

/** Whether a file is held, so a newly dropped or picked one is ignored (SPEC §4). */
export function isHoldingFile(status: UploadStatus): boolean {
  return status === 'confirming' || status === 'uploading';
}

/** The pure transition function of the upload state machine; actions that do not fit the current state change nothing. */
export function uploadReducer(state: TextureUploadState, action: Action): TextureUploadState {
  switch (action.type) {
    case 'saved-loaded':
      return { ...state, saved: action.saved, savedState: 'ready' };
    case 'saved-failed':
      return { ...state, savedState: 'failed' };
    case 'check-started':
      return isHoldingFile(state.status) ? state : { ...state, checking: true, error: null };
    case 'check-failed':
      // Any check failure shows its message and stays in (or returns to) waiting.
      return isHoldingFile(state.status) ? state : { ...state, status: 'waiting', held: null, checking: false, error: textureMessageDisplay(action.message) };
    case 'check-passed':
      return isHoldingFile(state.status) ? state : { ...state, status: 'confirming', held: action.texture, checking: false, error: null, progress: 0 };
    case 'cancel':
      // Back to waiting: the preview shows the saved texture again.
      return state.status === 'confirming' ? { ...state, status: 'waiting', held: null, error: null } : state;
    case 'upload-started':
      return state.status === 'confirming' ? { ...state, status: 'uploading', progress: 0, error: null } : state;
    case 'progress':
      return state.status === 'uploading' ? { ...state, progress: Math.max(state.progress, action.fraction) } : state;
    case 'upload-succeeded':
      return state.status === 'uploading' ? { ...state, status: 'uploaded', progress: 1, saved: action.saved, resetAfterMs: action.resetAfterMs } : state;
    case 'upload-failed':
      return state.status === 'uploading' ? { ...state, status: 'failed', error: action.error, resetAfterMs: action.resetAfterMs } : state;
    case 'reset':
      // The message of a failure stays readable after the reset; the held file goes.
      return state.status === 'uploaded' || state.status === 'failed' ? { ...state, status: 'waiting', held: null, progress: 0 } : state;
    case 'remove-started':
      return { ...state, saved: action.saved, removing: true, error: null };
    case 'remove-finished':
      return { ...state, saved: action.saved, removing: false, error: action.error };
    default:
      return state;
  }
}

interface UploadBody {
  success?: boolean;
  msg?: string;
  cape?: string | null;
  ears?: string | null;
}

/** Runs an upload page: loads the saved texture, checks picked files, uploads with progress, resets on the SPEC §4 timers, removes. */
export function useTextureUpload(kind: TextureKind) {
  const user = useStore($user);
  const uuid = user?.uuid ?? null;
  const [state, dispatch] = useReducer(uploadReducer, initialState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const checkSequence = useRef(0);
  const uploadAbort = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  // The server render has no stored user: markup that depends on it waits for hydration.
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => {
    mounted.current = true;
    setHydrated(true);
    return () => {
      mounted.current = false;
      uploadAbort.current?.abort();
    };
  }, []);

  const refreshSaved = useCallback(
    async (signal?: AbortSignal) => {
      if (!uuid) return;
      try {
        const saved = await fetchSavedTextures(uuid, signal);
        if (mounted.current) dispatch({ type: 'saved-loaded', saved });
      } catch {
        if (mounted.current && !signal?.aborted) dispatch({ type: 'saved-failed' });
      }
    },
    [uuid],
  );

  // The player's current cape and ears, to show and to restore on Cancel.
  useEffect(() => {
    const controller = new AbortController();
    void refreshSaved(controller.signal);
    return () => controller.abort();
  }, [refreshSaved]);

  // Uploaded and failed return to waiting on their own (3 s, or 10 s after a cape request error).
  useEffect(() => {
    if (state.status !== 'uploaded' && state.status !== 'failed') return;
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
      if (!file || isHoldingFile(stateRef.current.status)) return;
      const sequence = ++checkSequence.current;
      dispatch({ type: 'check-started' });
      const result = await checkTextureFile(file, kind);
      const stale = !mounted.current || sequence !== checkSequence.current || isHoldingFile(stateRef.current.status);
      if (stale) {
        if (result.ok) URL.revokeObjectURL(result.texture.url);
        return;
      }
      dispatch(result.ok ? { type: 'check-passed', texture: result.texture } : { type: 'check-failed', message: result.message });
    },
    [kind],
  );

  /** Returns to waiting from confirming; the preview shows the saved texture again. */
  const cancel = useCallback(() => dispatch({ type: 'cancel' }), []);

  /** Sends the held file; success, a server-reported failure and a request error each end in their state. */
  const upload = useCallback(async () => {
    const { status, held } = stateRef.current;
    if (status !== 'confirming' || !held) return;
    dispatch({ type: 'upload-started' });
    const controller = new AbortController();
    uploadAbort.current = controller;
    let response;
    try {
      response = await uploadFile(kind.endpoint, held.file, {
        signal: controller.signal,
        onProgress: (fraction) => dispatch({ type: 'progress', fraction }),
      });
    } catch {
      return; // Aborted: the page is going away.
    }
    if (!mounted.current) return;
    const body = (response.body ?? undefined) as UploadBody | undefined;
    if (response.status >= 200 && response.status < 300 && body?.success === true) {
      const url = body[kind.name];
      const saved = { ...stateRef.current.saved };
      if (typeof url === 'string') {
        if (kind.name === 'cape') saved.cape = { kind: 'image', url };
        else saved.ears = url;
      }
      dispatch({ type: 'upload-succeeded', saved, resetAfterMs: kind.resetMs.uploaded });
      // The stored texture may differ from the file (an animated cape becomes a strip): read it back.
      void refreshSaved();
    } else if (body && body.success === false) {
      dispatch({ type: 'upload-failed', error: textureMessageDisplay(body.msg || 'Something went wrong'), resetAfterMs: kind.resetMs.serverFailure });
    } else {
      dispatch({ type: 'upload-failed', error: describeApiError(body), resetAfterMs: kind.resetMs.requestError });
    }
  }, [kind, refreshSaved]);

  /** Removes the saved texture: clears the preview at once and sends the DELETE (restored if the call fails). */
  const remove = useCallback(async () => {
    const { status, saved, removing } = stateRef.current;
    if (status !== 'waiting' || removing) return;
    const cleared = { ...saved, [kind.name]: null };
    dispatch({ type: 'remove-started', saved: cleared });
    try {
      await api(kind.endpoint, { method: 'DELETE' });
      if (mounted.current) dispatch({ type: 'remove-finished', saved: { ...stateRef.current.saved, [kind.name]: null }, error: null });
    } catch (failure) {
      if (mounted.current) dispatch({ type: 'remove-finished', saved: { ...stateRef.current.saved, [kind.name]: saved[kind.name] }, error: describeApiError(errorBody(failure)) });
    }
  }, [kind]);

  return { state, user: hydrated ? user : null, pickFile, cancel, upload, remove };
}
