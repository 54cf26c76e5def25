// The 3D viewer's life (skinview3d): created once its box is a quarter on screen, sized to the box, and rendering only
// while something moves.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { SkinViewer } from 'skinview3d';

/**
 * How much of the preview must be on screen before it starts (a sliver at the bottom of a phone's first screen is not
 * enough).
 */
const PREVIEW_START_VISIBLE = 0.25;
/** How long after the last wheel turn rendering pauses again. */
const WHEEL_IDLE_MS = 300;
/**
 * The player's turn that shows a side, seen from a camera straight ahead (a little off square, so the model looks 3D).
 */
export const SIDE_TURN = { back: Math.PI - 0.4, front: 0.4 } as const;

/** Whether the viewer is starting, drawing, or cannot run here (no WebGL). */
export type ViewerState = 'starting' | 'ready' | 'unsupported';

/** What the viewer hook hands the preview: the elements to attach, the viewer, its state and the render controls. */
export interface SkinViewerHandle {
  boxRef: RefObject<HTMLDivElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  viewerRef: RefObject<SkinViewer | null>;
  viewerState: ViewerState;
  /** Draws the scene once when the loop is paused (after a texture or pose change). */
  renderOnce: () => void;
  /** Tells the render loop whether an animation is playing (it runs while one does). */
  setAnimating: (animating: boolean) => void;
}

/** Which side of the player the camera sees: the camera's angle around the player against the player's own turn. */
function sideFacingCamera(viewer: SkinViewer): 'back' | 'front' {
  const camera = Math.atan2(viewer.camera.position.x, viewer.camera.position.z);
  const relative = Math.atan2(
    Math.sin(camera - viewer.playerWrapper.rotation.y),
    Math.cos(camera - viewer.playerWrapper.rotation.y),
  );
  return Math.abs(relative) < Math.PI / 2 ? 'front' : 'back';
}

/**
 * Creates the 3D viewer in the returned box and canvas, first showing the `facing` side at `zoom`, and runs its render
 * loop only while needed.
 */
export function useSkinViewer(facing: 'back' | 'front', zoom: number): SkinViewerHandle {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewerRef = useRef<SkinViewer | null>(null);
  const activity = useRef({ dragging: false, wheelTimer: undefined as number | undefined, animating: false });
  const [viewerState, setViewerState] = useState<ViewerState>('starting');

  /**
   * Writes which side of the player faces the camera onto the canvas (data-facing), after every pose or camera change.
   */
  const markFacing = useCallback(() => {
    const viewer = viewerRef.current;
    if (viewer && !viewer.disposed && canvasRef.current) canvasRef.current.dataset.facing = sideFacingCamera(viewer);
  }, []);

  /**
   * Runs the render loop only while the player is dragged, zoomed or an animated cape plays; otherwise draws once and
   * pauses.
   */
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

  const renderOnce = useCallback(() => {
    const viewer = viewerRef.current;
    if (viewer && !viewer.disposed && viewer.renderPaused) viewer.render();
    markFacing();
  }, [markFacing]);

  const setAnimating = useCallback(
    (animating: boolean) => {
      if (activity.current.animating === animating) return;
      activity.current.animating = animating;
      updatePaused();
    },
    [updatePaused],
  );

  // Create the viewer once a quarter of its box is on screen (skinview3d is loaded then: drawing a scene nobody sees
  // yet would take the page's first seconds on a phone), size it to its box, and dispose of it on unmount.
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
  }, []);

  return { boxRef, canvasRef, viewerRef, viewerState, renderOnce, setAnimating };
}
