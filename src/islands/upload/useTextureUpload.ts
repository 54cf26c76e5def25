// The cape and ears pages' upload: the shared upload flow plus the player's saved texture, shown when no file is held,
// restored on Cancel and removable.
import { useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody } from '../../lib/client/api-errors';
import { $user } from '../../lib/client/session';
import type { UploadRefusal, UploadResponse } from '../../lib/client/upload';
import { textureMessageDisplay } from '../shared/texture-files';
import { useUploadFlow, type UploadEnd } from '../shared/useUploadFlow';
import type { TextureKind } from './texture-kinds';
import { fetchSavedTextures, type SavedTextures } from './saved-textures';

/** Whether the saved textures are still loading, loaded, or could not be loaded. */
export type SavedState = 'loading' | 'ready' | 'failed';

/**
 * Runs an upload page: loads the saved texture, checks picked files, uploads with progress, resets to waiting on the
 * kind's timers, removes.
 */
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

  /**
   * Sends the held file; success, a server-reported failure and a request error each end in their state, with the
   * kind's reset timer.
   */
  const upload = useCallback(async () => {
    const settle = (response: UploadResponse<TextureKind['upload']>): UploadEnd => {
      if (response.ok && response.body.success === true) {
        const body = response.body;
        // The answer names the kind's slot: a cape upload answers `cape`, an ears upload `ears`.
        const url = 'cape' in body ? body.cape : body.ears;
        if (typeof url === 'string')
          setSaved((current) =>
            kind.name === 'cape' ? { ...current, cape: { kind: 'image', url } } : { ...current, ears: url },
          );
        // The stored texture may differ from the file (an animated cape becomes a strip): read it back.
        void refreshSaved();
        return { type: 'upload-succeeded', resetAfterMs: kind.resetMs.uploaded, notice: body.notice ?? null };
      }
      const refusal = response.body as Partial<UploadRefusal> | undefined;
      if (refusal && refusal.success === false)
        return {
          type: 'upload-failed',
          error: textureMessageDisplay(refusal.msg || 'Something went wrong'),
          resetAfterMs: kind.resetMs.serverFailure,
        };
      return { type: 'upload-failed', error: describeApiError(refusal), resetAfterMs: kind.resetMs.requestError };
    };
    await flow.upload(kind.upload, settle);
  }, [kind, refreshSaved, flow.upload]);

  /** Removes the saved texture: clears the preview at once and sends the DELETE (restored if the call fails). */
  const remove = useCallback(async () => {
    if (flow.stateRef.current.status !== 'waiting' || removing) return;
    const before = saved[kind.name];
    setSaved((current) => ({ ...current, [kind.name]: null }));
    setRemoving(true);
    showMessage(null);
    try {
      await apiCall(kind.remove);
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

  return {
    state,
    saved,
    savedState,
    removing,
    user: hydrated ? user : null,
    pickFile: flow.pickFile,
    cancel: flow.cancel,
    upload,
    remove,
  };
}
