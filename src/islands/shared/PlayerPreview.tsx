// The live 3D player preview (skinview3d): the player's skin, the cape or elytra (animated capes at 10 fps) and ears;
// it renders only while something moves.
import { useEffect, useState, type KeyboardEvent } from 'react';
import type { CapeTexture } from './preview/images';
import { PreviewControls } from './preview/PreviewControls';
import { useCapeAnimation } from './preview/useCapeAnimation';
import { useSkinAndEars } from './preview/useSkinAndEars';
import { SIDE_TURN, useSkinViewer } from './preview/useSkinViewer';

/** What the preview shows. */
export interface PlayerPreviewProps {
  /** The player whose skin is shown; null shows the default skin. */
  uuid: string | null;
  cape: CapeTexture | null;
  /** URL of a 14 × 7 ears texture. */
  ears: string | null;
  /** Which side of the player faces the viewer at first. */
  facing: 'back' | 'front';
  /**
   * Each time this becomes true (an upload finished), the player turns so that the `facing` side faces the camera
   * again.
   */
  turnToFacing?: boolean;
  /** Shows a loading veil while the saved textures load. */
  loading?: boolean;
  /** Offers the Elytra switch (cape page). */
  elytraToggle?: boolean;
  /** How much of the box the player fills (1 = head to feet); ears need headroom. */
  zoom?: number;
}

/** How far one arrow key press turns the player. */
const TURN_STEP = Math.PI / 8;

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
  const { boxRef, canvasRef, viewerRef, viewerState, renderOnce, setAnimating } = useSkinViewer(facing, zoom);
  const [elytra, setElytra] = useState(false);
  const { skinState, earsState } = useSkinAndEars(viewerRef, viewerState, uuid, ears, renderOnce);
  const capeState = useCapeAnimation(viewerRef, viewerState, cape, elytra, renderOnce, setAnimating);

  // After an upload the player turns to show the side the page is about (the new cape on its back), wherever it was
  // dragged or turned.
  useEffect(() => {
    const viewer = viewerRef.current;
    if (!turnToFacing || viewerState !== 'ready' || !viewer || viewer.disposed) return;
    const cameraAngle = Math.atan2(viewer.camera.position.x, viewer.camera.position.z);
    viewer.playerWrapper.rotation.y = cameraAngle + SIDE_TURN[facing];
    renderOnce();
  }, [viewerRef, turnToFacing, viewerState, facing, renderOnce]);

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

  const busy =
    loading ||
    viewerState === 'starting' ||
    skinState === 'loading' ||
    capeState === 'loading' ||
    earsState === 'loading';

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
          <p
            className="pointer-events-none absolute inset-x-0 bottom-3 flex items-center justify-center gap-2 text-xs text-ink-300"
            role="status"
          >
            <span className="h-3 w-3 animate-spin rounded-full border-2 border-brand-400 border-t-transparent" />{' '}
            Loading preview…
          </p>
        )}
        {!busy && (capeState === 'error' || earsState === 'error') && (
          <p
            className="pointer-events-none absolute inset-x-0 bottom-3 text-center text-xs text-amber-200"
            role="status"
          >
            {capeState === 'error' ? 'The cape' : 'The ears'} could not be shown in the preview.
          </p>
        )}
      </div>
      <PreviewControls
        elytraToggle={elytraToggle}
        elytra={elytra}
        onElytraChange={setElytra}
        capeReady={capeState === 'ready'}
        viewerReady={viewerState === 'ready'}
        onTurnAround={() => turn(Math.PI)}
      />
    </div>
  );
}
