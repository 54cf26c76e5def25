// The cape and ears pages' upload: the shared upload flow plus the player's saved texture, shown when no file is held, restored on Cancel and removable.
import { useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { api } from '../../lib/api';
import { describeApiError, errorBody } from '../../lib/api-client';
import { $user } from '../../lib/session';
import type { UploadResponse } from '../../lib/upload';
import { textureMessageDisplay } from '../shared/texture-files';
import { useUploadFlow, type UploadEnd } from '../shared/useUploadFlow';
import type { TextureKind } from './texture-kinds';
import { fetchSavedTextures, type SavedTextures } from './saved-textures';

/** Whether the saved textures are still loading, loaded, or could not be loaded. */
export type SavedState = 'loading' | 'ready' | 'failed';

interface UploadBody {
  success?: boolean;
  msg?: string;
  cape?: string | null;
  ears?: string | null;
  notice?: string;
}

/** Runs an upload page: loads the saved texture, checks picked files, uploads with progress, resets to waiting on the kind's timers, removes. */
export function useTextureUpload(kind: TextureKind) {
  const user = useStore($user);
  const uuid = user?.uuid ?? null;
  const flow = useUploadFlow(kind);
  const { state, mounted, showMessage } = flow;
  const [saved, setSaved] = useState<SavedTextures>({ cape: null, ears: null });
  const [savedState, setSavedState] = useState<SavedState>('loading');
  const [removing, setRemoving] = useState(false);
  // The server render has no stored user: markup that depends on it waits for hydration.
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => setHydrated(true), []);

  const refreshSaved = useCallback(
    async (signal?: AbortSignal) => {
      if (!uuid) return;
      try {
        const textures = await fetchSavedTextures(uuid, signal);
        if (mounted.current) {
          setSaved(textures);
          setSavedState('ready');
        }
      } catch {
        if (mounted.current && !signal?.aborted) setSavedState('failed');
      }
    },
    [uuid, mounted],
  );

  // The player's current cape and ears, to show and to restore on Cancel.
  useEffect(() => {
    const controller = new AbortController();
    void refreshSaved(controller.signal);
    return () => controller.abort();
  }, [refreshSaved]);

  /** Sends the held file; success, a server-reported failure and a request error each end in their state, with the kind's reset timer. */
  const upload = useCallback(async () => {
    const settle = (response: UploadResponse): UploadEnd => {
      const body = (response.body ?? undefined) as UploadBody | undefined;
      if (response.status >= 200 && response.status < 300 && body?.success === true) {
        const url = body[kind.name];
        if (typeof url === 'string') setSaved((current) => (kind.name === 'cape' ? { ...current, cape: { kind: 'image', url } } : { ...current, ears: url }));
        // The stored texture may differ from the file (an animated cape becomes a strip): read it back.
        void refreshSaved();
        return { type: 'upload-succeeded', resetAfterMs: kind.resetMs.uploaded, notice: body.notice ?? null };
      }
      if (body && body.success === false)
        return { type: 'upload-failed', error: textureMessageDisplay(body.msg || 'Something went wrong'), resetAfterMs: kind.resetMs.serverFailure };
      return { type: 'upload-failed', error: describeApiError(body), resetAfterMs: kind.resetMs.requestError };
    };
    await flow.upload(kind.endpoint, settle);
  }, [kind, refreshSaved, flow.upload]);

  /** Removes the saved texture: clears the preview at once and sends the DELETE (restored if the call fails). */
  const remove = useCallback(async () => {
    if (flow.stateRef.current.status !== 'waiting' || removing) return;
    const before = saved[kind.name];
    setSaved((current) => ({ ...current, [kind.name]: null }));
    setRemoving(true);
    showMessage(null);
    try {
      await api(kind.endpoint, { method: 'DELETE' });
      if (!mounted.current) return;
      setSaved((current) => ({ ...current, [kind.name]: null }));
      setRemoving(false);
      showMessage(null);
    } catch (failure) {
      if (!mounted.current) return;
      setSaved((current) => ({ ...current, [kind.name]: before }));
      setRemoving(false);
      showMessage(describeApiError(errorBody(failure)));
    }
  }, [kind, removing, saved, flow.stateRef, mounted, showMessage]);

  return { state, saved, savedState, removing, user: hydrated ? user : null, pickFile: flow.pickFile, cancel: flow.cancel, upload, remove };
}
