// Perceptual hash distances (server/textures/pipeline/perceptual-hash.ts): how far a re-saved, touched-up or nudged
// copy of a texture comes from the original (the nearest of the copy's upload probes), and how near different textures
// come; the numbers behind PERCEPTUAL_MATCH_DISTANCE. Run: npx tsx bench/perceptual-hash.ts
import {
  hammingDistance,
  NO_PERCEPTUAL_HASH,
  perceptualHash,
  perceptualProbes,
  PERCEPTUAL_MATCH_DISTANCE,
} from '../server/textures/pipeline/perceptual-hash.ts';
import {
  blobsDesign,
  designPng,
  frameColour,
  gradientDesign,
  reencodedGif,
  shiftedPng,
  stripesDesign,
  withChangedPixels,
  type CapeCoverage,
  type Design,
} from '../support/textures.ts';

interface Picture {
  design: string;
  name: string;
  group: 'cape' | 'ears';
  png: Buffer;
  hash: string;
}

const designs: Array<[string, Design]> = [
  ...Array.from({ length: 12 }, (_, i): [string, Design] => [`blobs ${i + 1}`, blobsDesign(i + 1)]),
  ['stripes down', stripesDesign(frameColour(1), frameColour(2), 2, false)],
  ['stripes across', stripesDesign(frameColour(3), frameColour(4), 3, true)],
  ['gradient', gradientDesign([20, 20, 160, 255], [240, 200, 40, 255])],
  ['solid red', () => [200, 30, 30, 255]],
  ['solid dark blue', () => [20, 30, 120, 255]],
];
const canvases: Array<{ width: number; height: number; coverage: CapeCoverage; group: 'cape' | 'ears' }> = [
  { width: 64, height: 32, coverage: 'cape', group: 'cape' },
  { width: 64, height: 32, coverage: 'cape-and-elytra', group: 'cape' },
  { width: 64, height: 32, coverage: 'full', group: 'cape' },
  { width: 512, height: 256, coverage: 'cape', group: 'cape' },
  { width: 512, height: 256, coverage: 'full', group: 'cape' },
  { width: 14, height: 7, coverage: 'full', group: 'ears' },
];

const pictures: Picture[] = [];
for (const { width, height, coverage, group } of canvases) {
  for (const [design, draw] of designs) {
    const png = await designPng(width, height, draw, coverage);
    pictures.push({
      design,
      name: `${design} on ${coverage} ${width}x${height}`,
      group,
      png,
      hash: await perceptualHash(png),
    });
  }
}
const real = pictures.filter((picture) => picture.hash !== NO_PERCEPTUAL_HASH);
console.log(`threshold: ${PERCEPTUAL_MATCH_DISTANCE}`);
console.log(
  `too simple to recognise (no perceptual hash): ${pictures
    .filter((picture) => picture.hash === NO_PERCEPTUAL_HASH)
    .map((picture) => picture.name)
    .join(', ')}`,
);

/** How far a copy comes from the original: the nearest of its probes (64 when it has no hash). */
async function copyDistance(original: string, copy: Buffer): Promise<number> {
  const probes = (await perceptualProbes(copy)).filter((probe) => probe !== NO_PERCEPTUAL_HASH);
  return Math.min(64, ...probes.map((probe) => hammingDistance(original, probe)));
}

const copyKinds: Array<[string, (png: Buffer) => Promise<Buffer>]> = [
  ['re-encoded (GIF, 64 colours, dithered)', reencodedGif],
  ['3 visible pixels changed', (png) => withChangedPixels(png, 3, 7)],
  ['3 pixels changed anywhere', (png) => withChangedPixels(png, 3, 11, true)],
  ['shifted 1 right', (png) => shiftedPng(png, 1, 0)],
  ['shifted 1 left', (png) => shiftedPng(png, -1, 0)],
  ['shifted 1 down', (png) => shiftedPng(png, 0, 1)],
  ['shifted 1 up', (png) => shiftedPng(png, 0, -1)],
  ['shifted 2 right 2 down', (png) => shiftedPng(png, 2, 2)],
  ['shifted 2 left 2 up', (png) => shiftedPng(png, -2, -2)],
  ['shifted 2 right 1 up', (png) => shiftedPng(png, 2, -1)],
];
for (const group of ['cape', 'ears'] as const) {
  console.log(
    `\n${group} copies, worst of each kind over ${real.filter((picture) => picture.group === group).length} pictures:`,
  );
  for (const [kind, make] of copyKinds) {
    let worst = { distance: -1, name: '' };
    for (const picture of real.filter((candidate) => candidate.group === group)) {
      const distance = await copyDistance(picture.hash, await make(picture.png));
      if (distance > worst.distance) worst = { distance, name: picture.name };
    }
    console.log(`  ${kind}: ${worst.distance} (${worst.name})`);
  }
}

// Different pictures: every pair of different designs (the same design at another size or coverage is no different
// picture).
for (const group of ['cape', 'ears'] as const) {
  const candidates = real.filter((picture) => picture.group === group);
  const pairs: Array<{ distance: number; names: string }> = [];
  for (const [i, a] of candidates.entries()) {
    for (const b of candidates.slice(i + 1)) {
      if (a.design === b.design) continue;
      const probes = await perceptualProbes(b.png);
      const distance = Math.min(...probes.map((probe) => hammingDistance(a.hash, probe)));
      pairs.push({ distance, names: `${a.name} / ${b.name}` });
    }
  }
  pairs.sort((x, y) => x.distance - y.distance);
  const histogram = new Map<number, number>();
  for (const pair of pairs) histogram.set(pair.distance, (histogram.get(pair.distance) ?? 0) + 1);
  console.log(
    `\ndifferent ${group === 'cape' ? 'capes' : 'ears'}: ${pairs.length} pairs (an upload's nearest probe to the other's hash); the nearest:`,
  );
  for (const pair of pairs.slice(0, 6)) console.log(`  ${pair.distance}: ${pair.names}`);
  console.log(
    `  histogram: ${[...histogram]
      .sort((x, y) => x[0] - y[0])
      .map(([d, n]) => `${d}:${n}`)
      .join(' ')}`,
  );
}
