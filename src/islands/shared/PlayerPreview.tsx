// The live 3D player preview (skinview3d): the player's skin, the cape or elytra (animated capes at 10 fps) and ears; it renders only while something moves.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SkinViewer } from 'skinview3d';
import { DEFAULT_SKIN_URL, skinUrlFor } from '../../lib/skin';
import { CAPE_FRAME_MS } from '../../lib/texture-rules';
import { loadImage, type CapeTexture } from './texture-files';
import { capeFrameHeight } from '../../lib/texture-layout';

/** How much of the preview must be on screen before it starts (a sliver at the bottom of a phone's first screen is not enough). */
const PREVIEW_START_VISIBLE = 0.25;
/** What the preview shows. */
export interface PlayerPreviewProps {
  /** The player whose skin is shown; null shows the default skin. */
  uuid: string | null;
  cape: CapeTexture | null;
  /** URL of a 14 × 7 ears texture. */
  ears: string | null;
  /** Which side of the player faces the viewer at first. */
  facing: 'back' | 'front';
  /** Each time this becomes true (an upload finished), the player turns so that the `facing` side faces the camera again. */
  turnToFacing?: boolean;
  /** Shows a loading veil while the saved textures load. */
  loading?: boolean;
  /** Offers the Elytra switch (cape page). */
  elytraToggle?: boolean;
  /** How much of the box the player fills (1 = head to feet); ears need headroom. */
  zoom?: number;
}

/** How long the skin service may take before the default skin is shown. */
const SKIN_TIMEOUT_MS = 4000;
/** How long after the last wheel turn rendering pauses again. */
const WHEEL_IDLE_MS = 300;
/** The player's turn that shows a side, seen from a camera straight ahead (a little off square, so the model looks 3D). */
const SIDE_TURN = { back: Math.PI - 0.4, front: 0.4 } as const;
/** How far one arrow key press turns the player. */
const TURN_STEP = Math.PI / 8;

type LoadState = 'loading' | 'ready' | 'none' | 'error';

/** Which side of the player the camera sees: the camera's angle around the player against the player's own turn. */
function sideFacingCamera(viewer: SkinViewer): 'back' | 'front' {
  const camera = Math.atan2(viewer.camera.position.x, viewer.camera.position.z);
  const relative = Math.atan2(Math.sin(camera - viewer.playerWrapper.rotation.y), Math.cos(camera - viewer.playerWrapper.rotation.y));
  return Math.abs(relative) < Math.PI / 2 ? 'front' : 'back';
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => window.setTimeout(() => resolve(fallback), ms))]);
}

/** One animation source: how many frames, their size, and how to draw frame i. */
interface FrameSource {
  count: number;
  width: number;
  height: number;
  draw: (context: CanvasRenderingContext2D, index: number) => void;
}

/** The 3D preview with its Elytra and Turn around controls. */
export default function PlayerPreview({
  uuid,
  cape,
  ears,
  facing,
  turnToFacing = false,
  loading = false,
  elytraToggle = false,
  zoom = 0.8,
}: PlayerPreviewProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewerRef = useRef<SkinViewer | null>(null);
  const activity = useRef({ dragging: false, wheelTimer: undefined as number | undefined, animating: false });
  const elytraRef = useRef(false);
  const [viewerState, setViewerState] = useState<'starting' | 'ready' | 'unsupported'>('starting');
  const [skinState, setSkinState] = useState<LoadState | 'default'>('loading');
  const [capeState, setCapeState] = useState<LoadState>('loading');
  const [earsState, setEarsState] = useState<LoadState>('loading');
  const [elytra, setElytra] = useState(false);

  /** Writes which side of the player faces the camera onto the canvas (data-facing), after every pose or camera change. */
  const markFacing = useCallback(() => {
    const viewer = viewerRef.current;
    if (viewer && !viewer.disposed && canvasRef.current) canvasRef.current.dataset.facing = sideFacingCamera(viewer);
  }, []);

  /** Runs the render loop only while the player is dragged, zoomed or an animated cape plays; otherwise draws once and pauses. */
  const updatePaused = useCallback(() => {
    const viewer = viewerRef.current;
    if (!viewer || viewer.disposed) return;
    const { dragging, wheelTimer, animating } = activity.current;
    const moving = dragging || wheelTimer !== undefined || animating;
    if (moving) {
      viewer.renderPaused = false;
    } else {
      viewer.renderPaused = true;
      viewer.render();
    }
    markFacing();
  }, [markFacing]);

  /** Draws the scene once when the loop is paused (after a texture or pose change). */
  const renderOnce = useCallback(() => {
    const viewer = viewerRef.current;
    if (viewer && !viewer.disposed && viewer.renderPaused) viewer.render();
    markFacing();
  }, [markFacing]);

  // Create the viewer once a quarter of its box is on screen (skinview3d is loaded then: drawing a scene nobody sees yet would take the
  // page's first seconds on a phone), size it to its box, and dispose of it on unmount.
  useEffect(() => {
    const state = activity.current;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    const canvas = canvasRef.current!;
    const box = boxRef.current!;
    const onPointerDown = () => {
      activity.current.dragging = true;
      updatePaused();
    };
    const onPointerUp = () => {
      if (!activity.current.dragging) return;
      activity.current.dragging = false;
      updatePaused();
    };
    const onWheel = () => {
      window.clearTimeout(activity.current.wheelTimer);
      activity.current.wheelTimer = window.setTimeout(() => {
        activity.current.wheelTimer = undefined;
        updatePaused();
      }, WHEEL_IDLE_MS);
      updatePaused();
    };

    const start = () =>
      import('skinview3d')
        .then(({ SkinViewer }) => {
          if (disposed) return;
          let viewer: SkinViewer;
          try {
            viewer = new SkinViewer({
              canvas,
              width: Math.max(1, box.clientWidth),
              height: Math.max(1, box.clientHeight),
              preserveDrawingBuffer: true,
              renderPaused: true,
              zoom,
              fov: 45,
            });
          } catch {
            setViewerState('unsupported');
            return;
          }
          viewer.playerWrapper.rotation.y = SIDE_TURN[facing];
          viewer.controls.enableZoom = true;
          viewer.controls.addEventListener('change', markFacing);
          viewerRef.current = viewer;
          canvas.addEventListener('pointerdown', onPointerDown);
          window.addEventListener('pointerup', onPointerUp);
          window.addEventListener('pointercancel', onPointerUp);
          canvas.addEventListener('wheel', onWheel, { passive: true });
          observer = new ResizeObserver(() => {
            if (box.clientWidth > 0 && box.clientHeight > 0) {
              viewer.setSize(box.clientWidth, box.clientHeight);
              renderOnce();
            }
          });
          observer.observe(box);
          viewer.render();
          markFacing();
          setViewerState('ready');
        })
        .catch(() => !disposed && setViewerState('unsupported'));
    const onScreen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.intersectionRatio >= PREVIEW_START_VISIBLE)) return;
        onScreen.disconnect();
        void start();
      },
      { threshold: PREVIEW_START_VISIBLE },
    );
    onScreen.observe(box);

    return () => {
      disposed = true;
      onScreen.disconnect();
      observer?.disconnect();
      canvas.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pointerup', onPointerUp);
      window.removeEventListener('pointercancel', onPointerUp);
      canvas.removeEventListener('wheel', onWheel);
      window.clearTimeout(state.wheelTimer);
      viewerRef.current?.dispose();
      viewerRef.current = null;
    };
    // The viewer is created once; `facing` and `zoom` only set the first pose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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
  }, [viewerState, uuid, renderOnce]);

  // The cape: a still image, or frames played at CAPE_FRAME_MS by drawing frame i into a canvas and loading it each tick.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (viewerState !== 'ready' || !viewer) return;
    let cancelled = false;
    let timer: number | undefined;
    const state = activity.current;
    const equipment = () => (elytraRef.current ? 'elytra' : 'cape');

    void (async () => {
      if (!cape) {
        viewer.loadCape(null);
        setCapeState('none');
        renderOnce();
        return;
      }
      setCapeState('loading');
      let source: FrameSource | null = null;
      if (cape.kind === 'frames') {
        const first = cape.frames[0];
        if (first) {
          source = {
            count: cape.frames.length,
            width: first.width,
            height: first.height,
            draw: (context, index) => context.drawImage(cape.frames[index]!, 0, 0),
          };
        }
      } else {
        const image = await loadImage(cape.url, true);
        if (cancelled || viewer.disposed) return;
        if (image && cape.kind === 'strip') {
          const width = image.naturalWidth;
          const height = Math.floor(capeFrameHeight(width));
          source = {
            count: Math.max(1, Math.floor(image.naturalHeight / height)),
            width,
            height,
            draw: (context, index) => context.drawImage(image, 0, index * height, width, height, 0, 0, width, height),
          };
        } else if (image) {
          source = { count: 1, width: image.naturalWidth, height: image.naturalHeight, draw: (context) => context.drawImage(image, 0, 0) };
        }
      }
      if (!source) {
        viewer.loadCape(null);
        setCapeState('error');
        renderOnce();
        return;
      }

      const frames: FrameSource = source;
      const frame = document.createElement('canvas');
      frame.width = frames.width;
      frame.height = frames.height;
      const context = frame.getContext('2d')!;
      let index = 0;
      const showFrame = () => {
        context.clearRect(0, 0, frame.width, frame.height);
        frames.draw(context, index);
        viewer.loadCape(frame, { backEquipment: equipment() });
        index = (index + 1) % frames.count;
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
      if (frames.count > 1) {
        timer = window.setInterval(showFrame, CAPE_FRAME_MS);
        activity.current.animating = true;
        updatePaused();
      }
    })();

    return () => {
      cancelled = true;
      window.clearInterval(timer);
      if (state.animating) {
        state.animating = false;
        updatePaused();
      }
    };
  }, [viewerState, cape, renderOnce, updatePaused]);

  // Cape or elytra: the same texture, a different model.
  useEffect(() => {
    elytraRef.current = elytra;
    const viewer = viewerRef.current;
    if (!viewer || viewer.disposed || capeState !== 'ready') return;
    viewer.playerObject.backEquipment = elytra ? 'elytra' : 'cape';
    renderOnce();
  }, [elytra, capeState, renderOnce]);

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
  }, [viewerState, ears, renderOnce]);

  // After an upload the player turns to show the side the page is about (the new cape on its back), wherever it was dragged or turned.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!turnToFacing || viewerState !== 'ready' || !viewer || viewer.disposed) return;
    const cameraAngle = Math.atan2(viewer.camera.position.x, viewer.camera.position.z);
    viewer.playerWrapper.rotation.y = cameraAngle + SIDE_TURN[facing];
    renderOnce();
  }, [turnToFacing, viewerState, facing, renderOnce]);

  const turn = (angle: number) => {
    const viewer = viewerRef.current;
    if (!viewer) return;
    viewer.playerWrapper.rotation.y += angle;
    renderOnce();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      turn(event.key === 'ArrowLeft' ? -TURN_STEP : TURN_STEP);
    }
  };

  const busy = loading || viewerState === 'starting' || skinState === 'loading' || capeState === 'loading' || earsState === 'loading';

  return (
    <div className="flex flex-col gap-3">
      <div
        ref={boxRef}
        className="relative mx-auto aspect-[4/5] max-h-[30rem] w-full overflow-hidden rounded-xl border border-ink-700 bg-[radial-gradient(circle_at_50%_35%,var(--color-ink-700),var(--color-ink-950)_75%)]"
        aria-busy={busy}
      >
        <canvas
          ref={canvasRef}
          data-testid="player-preview"
          data-viewer={viewerState}
          data-skin={skinState}
          data-cape={capeState}
          data-ears={earsState}
          data-equipment={elytra ? 'elytra' : 'cape'}
          tabIndex={0}
          role="img"
          aria-label="3D preview of your player. Drag to turn it, scroll to zoom, or use the left and right arrow keys."
          onKeyDown={onKeyDown}
          className="absolute inset-0 h-full w-full cursor-grab touch-none active:cursor-grabbing"
        />
        {viewerState === 'unsupported' && (
          <p className="absolute inset-0 grid place-items-center p-6 text-center text-sm text-ink-300">
            Your browser can't show the 3D preview (WebGL is off). Your upload still works.
          </p>
        )}
        {busy && viewerState !== 'unsupported' && (
          <p className="pointer-events-none absolute inset-x-0 bottom-3 flex items-center justify-center gap-2 text-xs text-ink-300" role="status">
            <span className="h-3 w-3 animate-spin rounded-full border-2 border-brand-400 border-t-transparent" /> Loading preview…
          </p>
        )}
        {!busy && (capeState === 'error' || earsState === 'error') && (
          <p className="pointer-events-none absolute inset-x-0 bottom-3 text-center text-xs text-amber-200" role="status">
            {capeState === 'error' ? 'The cape' : 'The ears'} could not be shown in the preview.
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {elytraToggle ? (
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-semibold select-none">
            <input
              type="checkbox"
              role="switch"
              className="peer sr-only"
              checked={elytra}
              onChange={(event) => setElytra(event.target.checked)}
              disabled={capeState !== 'ready'}
            />
            <span
              aria-hidden="true"
              className="relative h-6 w-11 rounded-full bg-ink-600 transition-colors peer-checked:bg-brand-500 peer-disabled:opacity-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-400 after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-5"
            />
            Elytra
          </label>
        ) : (
          <span />
        )}
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => turn(Math.PI)} disabled={viewerState !== 'ready'}>
          ↻ Turn around
        </button>
      </div>
    </div>
  );
}
