// The preview's skin (the player's own from the skin service, else the default skin) and ears (a standalone 14 × 7
// texture).
import { useEffect, useState, type RefObject } from 'react';
import type { SkinViewer } from 'skinview3d';
import { DEFAULT_SKIN_URL, skinUrlFor } from '../../../lib/skin';
import { loadImage } from './images';
import type { LoadState } from './useCapeAnimation';
import type { ViewerState } from './useSkinViewer';

/** How long the skin service may take before the default skin is shown. */
const SKIN_TIMEOUT_MS = 4000;

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => window.setTimeout(() => resolve(fallback), ms))]);
}

/**
 * Loads the skin of `uuid` (or the default skin) and the `ears` texture onto the viewer; returns each one's load state.
 */
export function useSkinAndEars(
  viewerRef: RefObject<SkinViewer | null>,
  viewerState: ViewerState,
  uuid: string | null,
  ears: string | null,
  renderOnce: () => void,
): { skinState: LoadState | 'default'; earsState: LoadState } {
  const [skinState, setSkinState] = useState<LoadState | 'default'>('loading');
  const [earsState, setEarsState] = useState<LoadState>('loading');

  // The player's skin from the skin service, or the bundled default skin when it cannot be reached.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (viewerState !== 'ready' || !viewer) return;
    let cancelled = false;
    setSkinState('loading');
    void (async () => {
      const own = uuid ? await withTimeout(loadImage(skinUrlFor(uuid), true), SKIN_TIMEOUT_MS, null) : null;
      const image = own ?? (await loadImage(DEFAULT_SKIN_URL));
      if (cancelled || viewer.disposed) return;
      if (!image) {
        setSkinState('error');
        return;
      }
      try {
        viewer.loadSkin(image);
        setSkinState(own ? 'ready' : 'default');
      } catch {
        setSkinState('error');
      }
      renderOnce();
    })();
    return () => {
      cancelled = true;
    };
  }, [viewerRef, viewerState, uuid, renderOnce]);

  // The ears: a standalone 14 × 7 texture on the head, as the mod draws them.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (viewerState !== 'ready' || !viewer) return;
    let cancelled = false;
    void (async () => {
      if (!ears) {
        viewer.loadEars(null);
        setEarsState('none');
        renderOnce();
        return;
      }
      setEarsState('loading');
      const image = await loadImage(ears, true);
      if (cancelled || viewer.disposed) return;
      try {
        if (!image) throw new Error('The ears did not load');
        viewer.loadEars(image, { textureType: 'standalone' });
        setEarsState('ready');
      } catch {
        viewer.loadEars(null);
        setEarsState('error');
      }
      renderOnce();
    })();
    return () => {
      cancelled = true;
    };
  }, [viewerRef, viewerState, ears, renderOnce]);

  return { skinState, earsState };
}
