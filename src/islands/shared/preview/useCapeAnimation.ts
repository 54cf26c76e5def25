// The preview's cape: a still image, or an animation's frames played at CAPE_FRAME_MS; worn as a cape or as an elytra.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { SkinViewer } from 'skinview3d';
import { capeFrameHeight } from '../../../lib/texture-layout';
import { CAPE_FRAME_MS } from '../../../lib/texture-rules';
import { loadImage, type CapeTexture } from './images';
import type { ViewerState } from './useSkinViewer';

/** How far a texture has loaded: loading, shown, none to show, or failed. */
export type LoadState = 'loading' | 'ready' | 'none' | 'error';

/** One animation source: how many frames, their size, and how to draw frame i. */
interface FrameSource {
  count: number;
  width: number;
  height: number;
  draw: (context: CanvasRenderingContext2D, index: number) => void;
}

/** The frames of a cape texture (one for a still image), or null when it cannot be read. */
async function frameSourceOf(cape: CapeTexture): Promise<FrameSource | null> {
  if (cape.kind === 'frames') {
    const first = cape.frames[0];
    if (!first) return null;
    return {
      count: cape.frames.length,
      width: first.width,
      height: first.height,
      draw: (context, index) => context.drawImage(cape.frames[index]!, 0, 0),
    };
  }
  const image = await loadImage(cape.url, true);
  if (image && cape.kind === 'strip') {
    const width = image.naturalWidth;
    const height = Math.floor(capeFrameHeight(width));
    return {
      count: Math.max(1, Math.floor(image.naturalHeight / height)),
      width,
      height,
      draw: (context, index) => context.drawImage(image, 0, index * height, width, height, 0, 0, width, height),
    };
  }
  if (image)
    return {
      count: 1,
      width: image.naturalWidth,
      height: image.naturalHeight,
      draw: (context) => context.drawImage(image, 0, 0),
    };
  return null;
}

/**
 * Shows `cape` on the viewer (animated capes frame by frame, each drawn into a canvas and loaded every tick), as an
 * elytra when `elytra`; returns its load state.
 */
export function useCapeAnimation(
  viewerRef: RefObject<SkinViewer | null>,
  viewerState: ViewerState,
  cape: CapeTexture | null,
  elytra: boolean,
  renderOnce: () => void,
  setAnimating: (animating: boolean) => void,
): LoadState {
  const [capeState, setCapeState] = useState<LoadState>('loading');
  const elytraRef = useRef(false);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (viewerState !== 'ready' || !viewer) return;
    let cancelled = false;
    let timer: number | undefined;
    const equipment = () => (elytraRef.current ? 'elytra' : 'cape');

    void (async () => {
      if (!cape) {
        viewer.loadCape(null);
        setCapeState('none');
        renderOnce();
        return;
      }
      setCapeState('loading');
      const source = await frameSourceOf(cape);
      if (cancelled || viewer.disposed) return;
      if (!source) {
        viewer.loadCape(null);
        setCapeState('error');
        renderOnce();
        return;
      }

      const frame = document.createElement('canvas');
      frame.width = source.width;
      frame.height = source.height;
      const context = frame.getContext('2d')!;
      let index = 0;
      const showFrame = () => {
        context.clearRect(0, 0, frame.width, frame.height);
        source.draw(context, index);
        viewer.loadCape(frame, { backEquipment: equipment() });
        index = (index + 1) % source.count;
        renderOnce();
      };
      try {
        showFrame();
      } catch {
        viewer.loadCape(null);
        setCapeState('error');
        renderOnce();
        return;
      }
      setCapeState('ready');
      if (source.count > 1) {
        timer = window.setInterval(showFrame, CAPE_FRAME_MS);
        setAnimating(true);
      }
    })();

    return () => {
      cancelled = true;
      window.clearInterval(timer);
      setAnimating(false);
    };
  }, [viewerRef, viewerState, cape, renderOnce, setAnimating]);

  // Cape or elytra: the same texture, a different model.
  useEffect(() => {
    elytraRef.current = elytra;
    const viewer = viewerRef.current;
    if (!viewer || viewer.disposed || capeState !== 'ready') return;
    viewer.playerObject.backEquipment = elytra ? 'elytra' : 'cape';
    renderOnce();
  }, [viewerRef, elytra, capeState, renderOnce]);

  return capeState;
}
