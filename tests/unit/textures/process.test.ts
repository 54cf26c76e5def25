// Unit tests for the texture pipeline: checks, safe decode and clean PNG re-encode of capes and ears
// (server/textures/pipeline/process.ts).
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { textureMessages, wrongCapeSizeMessage } from '../../../src/lib/texture-rules.ts';
import {
  processCape,
  processEars,
  resampleTimeline,
  sha256,
  stripFrameWidth,
  TextureRejected,
} from '../../../server/textures/pipeline/process.ts';
import {
  animatedGif,
  frameColour,
  padPng,
  pixelAt,
  PNG_SIGNATURE,
  pngChunks,
  pngHeaderOnly,
  rgbaPixels,
  sha256Hex,
  solidGif,
  solidPng,
  timedGif,
  twoColourPng,
  withIhdrSize,
  withTextChunks,
  type Rgba,
} from '../../../support/textures.ts';

const METADATA_CHUNKS = ['tEXt', 'iTXt', 'zTXt', 'eXIf', 'iCCP', 'tIME'];

/** The message a pipeline call is rejected with (fails the test if it resolves or throws something else). */
async function rejection(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(TextureRejected);
    return (error as Error).message;
  }
  throw new Error('Expected a TextureRejected, but the texture was accepted');
}

let cape: Buffer;
let capeWithMetadata: Buffer;
let gif4: Buffer;

beforeAll(async () => {
  cape = await solidPng(128, 64, [10, 120, 200, 255]);
  capeWithMetadata = withTextChunks(
    await sharp(cape)
      .withMetadata()
      .withExif({ IFD0: { Copyright: 'someone', Artist: 'a tester' } })
      .png()
      .toBuffer(),
    'secret comment',
  );
  gif4 = await animatedGif(64, 32, 4);
});

describe('processCape', () => {
  it('re-encodes a PNG to a PNG with its size and the SHA-256 of the output as hash', async () => {
    const { still, strip } = await processCape(cape);
    expect(still.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(still.hash).toBe(sha256Hex(still.bytes));
    expect(still.hash).toBe(sha256(still.bytes));
    expect(still.hash).toMatch(/^[0-9a-f]{64}$/);
    expect([still.width, still.height, still.frames]).toEqual([128, 64, 1]);
    expect(strip).toBeNull();
    const pixels = await rgbaPixels(still.bytes);
    expect([pixels.width, pixels.height]).toEqual([128, 64]);
    expect(pixelAt(pixels, 0, 0)).toEqual([10, 120, 200, 255]);
    expect(pixelAt(pixels, 127, 63)).toEqual([10, 120, 200, 255]);
  });

  it('stores a picture of 2,097,152 colours about as small as it came: the mod downloads the stored file', async () => {
    const raw = Buffer.alloc(2048 * 1024 * 4);
    for (let i = 0; i < 2048 * 1024; i++) raw.writeUInt32BE(((i << 8) | 0xff) >>> 0, i * 4);
    const upload = await sharp(raw, { raw: { width: 2048, height: 1024, channels: 4 } })
      .png({ adaptiveFiltering: true, compressionLevel: 9 })
      .toBuffer();
    expect(upload.length).toBeLessThan(50_000);
    const { still } = await processCape(upload);
    expect(still.bytes.length, 'stored bytes').toBeLessThan(2 * upload.length);
    expect((await rgbaPixels(still.bytes)).data.equals(raw)).toBe(true);
  });

  it('strips every metadata chunk from the stored PNG', async () => {
    const inputTypes = pngChunks(capeWithMetadata).map((chunk) => chunk.type);
    for (const type of ['tEXt', 'iTXt', 'zTXt', 'eXIf'])
      expect(inputTypes, 'the input really carries metadata').toContain(type);
    const { still } = await processCape(capeWithMetadata);
    const outputTypes = pngChunks(still.bytes).map((chunk) => chunk.type);
    for (const type of METADATA_CHUNKS) expect(outputTypes).not.toContain(type);
    expect(outputTypes[0]).toBe('IHDR');
    expect(outputTypes.at(-1)).toBe('IEND');
    expect(still.bytes.includes(Buffer.from('secret comment'))).toBe(false);
    expect(still.bytes.includes(Buffer.from('someone'))).toBe(false);
  });

  it('gives the same image the same hash, also when the input bytes differ only in metadata or compression', async () => {
    const first = await processCape(cape);
    const again = await processCape(Buffer.from(cape));
    expect(again.still.hash).toBe(first.still.hash);
    expect(again.still.bytes.equals(first.still.bytes)).toBe(true);
    const fromMetadata = await processCape(capeWithMetadata);
    expect(fromMetadata.still.hash).toBe(first.still.hash);
    const uncompressed = await sharp(cape).png({ compressionLevel: 0 }).toBuffer();
    expect(uncompressed.equals(cape)).toBe(false);
    expect((await processCape(uncompressed)).still.hash).toBe(first.still.hash);
    const other = await processCape(await solidPng(128, 64, [10, 120, 201, 255]));
    expect(other.still.hash).not.toBe(first.still.hash);
  });

  it('turns an animated GIF into its first frame and a strip of all frames, stacked in order', async () => {
    const { still, strip } = await processCape(gif4);
    expect([still.width, still.height, still.frames]).toEqual([64, 32, 1]);
    expect(still.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(pixelAt(await rgbaPixels(still.bytes), 5, 5)).toEqual(frameColour(0));

    expect(strip).not.toBeNull();
    expect([strip!.width, strip!.height, strip!.frames]).toEqual([64, 128, 4]);
    expect(strip!.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(strip!.hash).toBe(sha256Hex(strip!.bytes));
    expect(strip!.hash).not.toBe(still.hash);
    const pixels = await rgbaPixels(strip!.bytes);
    expect([pixels.width, pixels.height]).toEqual([64, 128]);
    for (let frame = 0; frame < 4; frame++) {
      for (const y of [frame * 32, frame * 32 + 16, frame * 32 + 31]) {
        expect(pixelAt(pixels, 0, y), `frame ${frame}, row ${y}`).toEqual(frameColour(frame));
        expect(pixelAt(pixels, 63, y), `frame ${frame}, row ${y}`).toEqual(frameColour(frame));
      }
    }
    const types = pngChunks(strip!.bytes).map((chunk) => chunk.type);
    for (const type of [...METADATA_CHUNKS, 'acTL', 'fcTL', 'fdAT']) expect(types).not.toContain(type);
  });

  it('treats a one-frame GIF as a still cape with no strip', async () => {
    const { still, strip } = await processCape(await solidGif(64, 32, [1, 2, 3, 255]));
    expect(strip).toBeNull();
    expect([still.width, still.height]).toEqual([64, 32]);
    expect(pixelAt(await rgbaPixels(still.bytes), 0, 0)).toEqual([1, 2, 3, 255]);
  });

  it('accepts 64 frames and rejects 65 with the frame message', async () => {
    const { strip } = await processCape(await animatedGif(64, 32, 64));
    expect(strip?.frames).toBe(64);
    expect(await rejection(processCape(await animatedGif(64, 32, 65)))).toBe(
      'Animated capes can have at most 64 frames',
    );
  });

  it('accepts exactly 500,000 bytes and rejects 500,001 with the size message', async () => {
    const { still } = await processCape(padPng(cape, 500_000));
    expect(still.bytes.length).toBeLessThan(10_000);
    expect(await rejection(processCape(padPng(cape, 500_001)))).toBe('The cape is too big. Max file size is 500KB.');
  });

  it('rejects a file that is neither PNG nor GIF with the type message', async () => {
    const jpeg = await sharp(cape).jpeg().toBuffer();
    for (const bytes of [Buffer.from('just some text, not an image'), jpeg, Buffer.alloc(0)]) {
      expect(await rejection(processCape(bytes))).toBe('Capes must be either PNG or GIF');
    }
  });

  it('rejects PNGs whose header promises pixels the file does not hold as not valid', async () => {
    const cases = {
      'cut after IHDR': cape.subarray(0, 33),
      'cut inside IDAT': cape.subarray(0, Math.floor(cape.length * 0.7)),
      'garbage after IHDR': pngHeaderOnly(64, 32, Buffer.alloc(200, 7)),
      'IHDR says 64 x 32, data is 128 x 64': withIhdrSize(cape, 64, 32),
      'signature only': PNG_SIGNATURE,
    };
    for (const [name, bytes] of Object.entries(cases))
      expect(await rejection(processCape(bytes)), name).toBe('That image is not valid');
  });

  it('rejects a PNG whose header claims a size over the limit before decoding anything (a bomb)', async () => {
    // The data is garbage: the only way to get this message is from the header.
    expect(await rejection(processCape(pngHeaderOnly(4096, 2048, Buffer.alloc(100))))).toBe(
      'Capes must be no larger than 2048 x 1024',
    );
    expect(await rejection(processCape(pngHeaderOnly(100_000, 50_000)))).toBe(textureMessages.capeTooLarge);
    expect(await rejection(processCape(pngHeaderOnly(64, 33, Buffer.alloc(100))))).toBe(
      wrongCapeSizeMessage({ width: 64, height: 33 }),
    );
  });

  it('rejects real images of the wrong size with the dimension messages', async () => {
    expect(await rejection(processCape(await solidPng(64, 33)))).toBe(
      "The cape isn't the right dimensions. Check out the gallery for some awesome capes. This file is 64 x 33 pixels.",
    );
    expect(await rejection(processCape(await solidPng(100, 50)))).toBe(
      wrongCapeSizeMessage({ width: 100, height: 50 }),
    );
    expect(await rejection(processCape(await solidPng(2050, 1025)))).toBe('Capes must be no larger than 2048 x 1024');
    expect(await rejection(processCape(await solidGif(64, 64)))).toBe(wrongCapeSizeMessage({ width: 64, height: 64 }));
  });

  it('rejects a GIF that is cut short or malformed as not valid', async () => {
    expect(await rejection(processCape(gif4.subarray(0, gif4.length - 1)))).toBe('That image is not valid');
    expect(await rejection(processCape(gif4.subarray(0, 40)))).toBe(textureMessages.invalidImage);
    const noFrames = Buffer.concat([gif4.subarray(0, 6), Buffer.from([64, 0, 32, 0, 0, 0, 0, 0x3b])]);
    expect(await rejection(processCape(noFrames))).toBe(textureMessages.invalidImage);
  });

  it('rejects a GIF whose header hides frames larger than allowed', async () => {
    // Logical screen patched to 64 x 32 over 2100 x 1050 pixels: the decoder's pixel limit must stop it.
    const hidden = Buffer.from(await solidGif(2100, 1050));
    hidden.writeUInt16LE(64, 6);
    hidden.writeUInt16LE(32, 8);
    const message = await rejection(processCape(hidden));
    expect([textureMessages.invalidImage, textureMessages.capeTooLarge]).toContain(message);
  });
});

describe('capes as the mod reads them', () => {
  const red: Rgba = [220, 20, 20, 255];
  const blue: Rgba = [20, 20, 220, 255];

  it('stores a 2:1 cape that is not 64·2ⁿ wide scaled up (nearest neighbour) to the next such width: 192 → 256, 320 → 512', async () => {
    for (const [width, stored] of [
      [192, 256],
      [320, 512],
      [1536, 2048],
    ] as const) {
      const { still, strip, notice } = await processCape(await twoColourPng(width, width / 2, red, blue));
      expect([still.width, still.height], `${width} wide`).toEqual([stored, stored / 2]);
      expect([strip, notice]).toEqual([null, null]);
      const pixels = await rgbaPixels(still.bytes);
      expect(pixelAt(pixels, 0, 0)).toEqual(red);
      expect(pixelAt(pixels, stored / 2 - 1, stored / 2 - 1)).toEqual(red);
      expect(pixelAt(pixels, stored / 2, 0)).toEqual(blue);
      expect(pixelAt(pixels, stored - 1, stored / 2 - 1)).toEqual(blue);
    }
  });

  it('keeps 64·2ⁿ-wide capes at their size', async () => {
    for (const width of [64, 128, 256, 512, 1024, 2048]) {
      expect((await processCape(await solidPng(width, width / 2))).still.width).toBe(width);
    }
  });

  it('scales the frames of a 192 x 96 animation to 256 x 128 too', async () => {
    const { still, strip } = await processCape(await animatedGif(192, 96, 3));
    expect([still.width, still.height]).toEqual([256, 128]);
    expect([strip!.width, strip!.height, strip!.frames]).toEqual([256, 384, 3]);
    const pixels = await rgbaPixels(strip!.bytes);
    for (let frame = 0; frame < 3; frame++) expect(pixelAt(pixels, 255, frame * 128 + 127)).toEqual(frameColour(frame));
  });

  it('scales every frame of a strip down by halves until the strip holds at most 2048 x 4096 pixels; the still keeps its size', async () => {
    expect(stripFrameWidth(2048, 64)).toBe(512);
    expect(stripFrameWidth(2048, 4)).toBe(2048);
    expect(stripFrameWidth(1024, 16)).toBe(1024);
    expect(stripFrameWidth(1024, 17)).toBe(512);
    // 17 frames of 1024 x 512 are 8,912,896 pixels, over the 8,388,608 budget.
    const { still, strip, notice } = await processCape(await animatedGif(1024, 512, 17));
    expect([still.width, still.height]).toEqual([1024, 512]);
    expect([strip!.width, strip!.height, strip!.frames]).toEqual([512, 256 * 17, 17]);
    expect(strip!.width * strip!.height).toBeLessThanOrEqual(2048 * 4096);
    expect(notice).toBe('The animation was scaled to 512 × 256 a frame to fit.');
    const pixels = await rgbaPixels(strip!.bytes);
    for (let frame = 0; frame < 17; frame++)
      expect(pixelAt(pixels, 511, frame * 256 + 255), `frame ${frame}`).toEqual(frameColour(frame));
  });

  it('leaves a strip that fits alone, with no notice', async () => {
    const { strip, notice } = await processCape(await animatedGif(1024, 512, 16));
    expect([strip!.width, strip!.frames, notice]).toEqual([1024, 16, null]);
  });
});

describe('frame timing', () => {
  it('resamples a timeline to the 100 ms tick: long frames repeat, short ones merge into the frame on screen at each tick', () => {
    expect(resampleTimeline([100, 100, 100], 3)).toEqual({ ticks: [0, 1, 2], cut: false });
    expect(resampleTimeline([300, 100], 2)).toEqual({ ticks: [0, 0, 0, 1], cut: false });
    expect(resampleTimeline([50, 50, 100], 3)).toEqual({ ticks: [0, 2], cut: false });
    expect(resampleTimeline([150, 150], 2)).toEqual({ ticks: [0, 0, 1], cut: false });
    expect(resampleTimeline([30, 30, 30], 3)).toEqual({ ticks: [0], cut: false });
  });

  it('shows frames with a missing delay or one of 10 ms or less for 100 ms, as browsers do', () => {
    expect(resampleTimeline([0, 0], 2)).toEqual({ ticks: [0, 1], cut: false });
    expect(resampleTimeline([10, 20], 2)).toEqual({ ticks: [0, 1], cut: false });
    expect(resampleTimeline([], 3)).toEqual({ ticks: [0, 1, 2], cut: false });
  });

  it('cuts a timeline longer than 6.4 s at 64 ticks', () => {
    const { ticks, cut } = resampleTimeline([5000, 5000], 2);
    expect([ticks.length, cut]).toEqual([64, true]);
    expect(ticks.slice(49, 51)).toEqual([0, 1]);
  });

  it("builds the strip from the GIF's own delays: long frames repeat, a frame between two ticks is merged away", async () => {
    const colours = [frameColour(0), frameColour(1), frameColour(2), frameColour(3)];
    // On screen: frame 0 for 0-250 ms, frame 1 for 250-300, frame 2 for 300-450, frame 3 for 450-600.
    const gif = await timedGif(64, 32, [
      { colour: colours[0]!, delay: 250 },
      { colour: colours[1]!, delay: 50 },
      { colour: colours[2]!, delay: 150 },
      { colour: colours[3]!, delay: 150 },
    ]);
    const { strip } = await processCape(gif);
    expect(strip!.frames).toBe(6);
    const pixels = await rgbaPixels(strip!.bytes);
    const shown = Array.from({ length: 6 }, (_, tick) => pixelAt(pixels, 0, tick * 32));
    expect(shown).toEqual([colours[0], colours[0], colours[0], colours[2], colours[2], colours[3]]);
  });

  it('stores a GIF whose whole animation fits in one tick as a still cape', async () => {
    const gif = await timedGif(64, 32, [
      { colour: frameColour(0), delay: 30 },
      { colour: frameColour(1), delay: 30 },
    ]);
    const { still, strip } = await processCape(gif);
    expect(strip).toBeNull();
    expect(pixelAt(await rgbaPixels(still.bytes), 0, 0)).toEqual(frameColour(0));
  });

  it('cuts a GIF longer than 6.4 s at 64 strip frames and says so', async () => {
    const gif = await timedGif(64, 32, [
      { colour: frameColour(0), delay: 4000 },
      { colour: frameColour(1), delay: 4000 },
    ]);
    const { strip, notice } = await processCape(gif);
    expect(strip!.frames).toBe(64);
    expect(notice).toBe('The animation was cut to its first 6.4 seconds.');
  });
});

describe('processEars', () => {
  it('re-encodes 14 x 7 ears to a clean PNG hashed by SHA-256', async () => {
    const input = withTextChunks(await solidPng(14, 7, [250, 200, 10, 255]));
    const ears = await processEars(input);
    expect(ears.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect([ears.width, ears.height, ears.frames]).toEqual([14, 7, 1]);
    expect(ears.hash).toBe(sha256Hex(ears.bytes));
    const types = pngChunks(ears.bytes).map((chunk) => chunk.type);
    for (const type of METADATA_CHUNKS) expect(types).not.toContain(type);
    expect(pixelAt(await rgbaPixels(ears.bytes), 13, 6)).toEqual([250, 200, 10, 255]);
    expect((await processEars(await solidPng(14, 7, [250, 200, 10, 255]))).hash).toBe(ears.hash);
  });

  it('rejects anything but exactly 14 x 7 with the ears dimensions message', async () => {
    for (const [width, height] of [
      [14, 10],
      [15, 7],
      [7, 14],
      [28, 14],
    ] as const) {
      expect(await rejection(processEars(await solidPng(width, height))), `${width} x ${height}`).toBe(
        `The ears aren't the right dimensions. Check out the gallery for some awesome ears. This file is ${width} x ${height} pixels.`,
      );
    }
  });

  it('rejects GIF and other types with the PNG-only message', async () => {
    expect(await rejection(processEars(await solidGif(14, 7)))).toBe('Ears must be PNG');
    expect(await rejection(processEars(Buffer.from('not an image')))).toBe('Ears must be PNG');
  });

  it('accepts exactly 10,000 bytes and rejects 10,001 with the size message', async () => {
    const ears = await solidPng(14, 7);
    expect((await processEars(padPng(ears, 10_000))).width).toBe(14);
    expect(await rejection(processEars(padPng(ears, 10_001)))).toBe('The ears are too big. Max file size is 10KB.');
  });

  it('rejects broken 14 x 7 PNGs as not valid', async () => {
    const ears = await solidPng(14, 7);
    expect(await rejection(processEars(ears.subarray(0, 40)))).toBe('That image is not valid');
    expect(await rejection(processEars(pngHeaderOnly(14, 7, Buffer.alloc(50, 3))))).toBe(textureMessages.invalidImage);
    expect(await rejection(processEars(ears.subarray(0, 20)))).toBe(textureMessages.invalidImage);
  });
});
