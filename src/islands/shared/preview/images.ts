// What the 3D preview draws from: a cape as it shows it, and loading an image by URL.

/** A cape as the 3D preview shows it. */
export type CapeTexture =
  /** A still image (PNG, or the first frame of a GIF). */
  | { kind: 'image'; url: string }
  /** A vertical strip of frames, each width × width/2 (the mod API's animated_cape_url). */
  | { kind: 'strip'; url: string }
  /** Frames decoded from a GIF in the browser, all the same size. */
  | { kind: 'frames'; frames: readonly HTMLCanvasElement[] };

/** Loads an image URL into an Image element; resolves null when it is not a valid image. */
export function loadImage(url: string, crossOrigin = false): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const image = new Image();
    if (crossOrigin) image.crossOrigin = 'anonymous';
    image.onload = () => resolve(image.naturalWidth > 0 && image.naturalHeight > 0 ? image : null);
    image.onerror = () => resolve(null);
    image.src = url;
  });
}
