// The benches' heaviest upload: a GIF cape of many frames, each a different colour with a moving band (it compresses
// well, so it fits in 500 KB).
import sharp from 'sharp';

/**
 * A GIF of `frames` frames, `width` wide and (by default, a cape's shape) half as high, each frame a different colour
 * with a moving band.
 */
export async function animatedGif(width: number, frames: number, height = width / 2): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 4);
  for (let f = 0; f < frames; f++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = ((f * height + y) * width + x) * 4;
        const band = Math.abs(x - (f * width) / frames) < width / 16;
        raw[i] = band ? 255 : (f * 37) & 0xff;
        raw[i + 1] = band ? 255 : (f * 91) & 0xff;
        raw[i + 2] = (f * 13) & 0xff;
        raw[i + 3] = 255;
      }
    }
  }
  return sharp(raw, {
    raw: { width, height: height * frames, channels: 4, pageHeight: height },
    limitInputPixels: false,
  })
    .gif({ effort: 1 })
    .toBuffer();
}
