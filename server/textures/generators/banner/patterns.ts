// Our own drawings of every banner pattern of the game (Java 1.21) as coverage masks over the 20 x 40 banner face, not
// taken from the game's textures: geometric patterns are shapes tested at 4 x 4 points inside each pixel (so slanted
// and round edges come out soft), the gradients are alpha ramps, and the emblems are small hand-made pictures or
// shapes.
/** Width of the banner face, in pixels. */
export const BANNER_WIDTH = 20;
/** Height of the banner face, in pixels. */
export const BANNER_HEIGHT = 40;

/**
 * Every pattern id, as the game names it (`base` covers the whole face). Which part of the face each covers follows the
 * game's old 3 x 3 crafting shapes, listed with each id in github.com/Attano/Spigot-1.8
 * net/minecraft/server/v1_8_R1/E/EnumBannerPatternType.java (e.g. diagonal_left "## / #  /   " covers the top left
 * half, diagonal_up_right the bottom right half), with sizes compared by eye with the tiles of the LivzMC banner editor
 * (github.com/LivzMC/website public/js/banner.js); heraldic names: https://pgm.dev/docs/reference/misc/banners.
 */
export const PATTERN_IDS = [
  'base',
  'stripe_bottom',
  'stripe_top',
  'stripe_left',
  'stripe_right',
  'stripe_center',
  'stripe_middle',
  'stripe_downright',
  'stripe_downleft',
  'small_stripes',
  'cross',
  'straight_cross',
  'diagonal_left',
  'diagonal_right',
  'diagonal_up_left',
  'diagonal_up_right',
  'half_vertical',
  'half_vertical_right',
  'half_horizontal',
  'half_horizontal_bottom',
  'square_bottom_left',
  'square_bottom_right',
  'square_top_left',
  'square_top_right',
  'triangle_bottom',
  'triangle_top',
  'triangles_bottom',
  'triangles_top',
  'circle',
  'rhombus',
  'border',
  'curly_border',
  'bricks',
  'gradient',
  'gradient_up',
  'creeper',
  'skull',
  'flower',
  'mojang',
  'globe',
  'piglin',
  'flow',
  'guster',
] as const;

/** A banner pattern's game id. */
export type PatternId = (typeof PATTERN_IDS)[number];

/** True when the text is a banner pattern id. */
export function isPatternId(name: string): name is PatternId {
  return (PATTERN_IDS as readonly string[]).includes(name);
}

/** A point test over the face: x across 0..20, y down 0..40 (continuous, pixel (i, j) spans i..i+1, j..j+1). */
type Shape = (x: number, y: number) => boolean;

/**
 * How a mask is drawn: a shape (sampled 4 x 4 a pixel), a per-pixel alpha, or a picture of '#' (covered) and '.' rows
 * placed at a corner.
 */
type MaskDrawing =
  | { kind: 'shape'; shape: Shape }
  | { kind: 'alpha'; alpha: (column: number, row: number) => number }
  | { kind: 'picture'; rows: readonly string[]; left: number; top: number };

const CENTRE_X = BANNER_WIDTH / 2;
const CENTRE_Y = BANNER_HEIGHT / 2;
/** Samples per pixel side when a shape is measured. */
const SAMPLES = 4;

/** Horizontal half width of the bend stripes (stripe_downright, stripe_downleft). */
const BEND_HALF_WIDTH = 3.5;
/** Horizontal half width of each arm of the saltire (cross). */
const SALTIRE_HALF_WIDTH = 3;

/** Distance to the nearest edge of the face. */
function edgeDistance(x: number, y: number): number {
  return Math.min(x, BANNER_WIDTH - x, y, BANNER_HEIGHT - y);
}

/** True inside a band around the top-left to bottom-right diagonal of the face (x = y / 2). */
function onFallingDiagonal(x: number, y: number, halfWidth: number): boolean {
  return Math.abs(x - y / 2) < halfWidth;
}

/** True inside a band around the top-right to bottom-left diagonal of the face (x = 20 - y / 2). */
function onRisingDiagonal(x: number, y: number, halfWidth: number): boolean {
  return Math.abs(x - (BANNER_WIDTH - y / 2)) < halfWidth;
}

/** Three teeth along the bottom edge, each 20/3 wide at its base and 7 high (the indented base). */
function inBottomTeeth(x: number, y: number): boolean {
  const toothWidth = BANNER_WIDTH / 3;
  const toothHeight = 7;
  const centre = (Math.floor(x / toothWidth) + 0.5) * toothWidth;
  const fromCentre = Math.abs(x - centre) / (toothWidth / 2);
  return y >= BANNER_HEIGHT - toothHeight * (1 - fromCentre);
}

/** The scalloped border: a 1-pixel band with round bumps reaching 3.5 pixels in, one every 5 pixels along each edge. */
function inCurlyBorder(x: number, y: number): boolean {
  const distance = edgeDistance(x, y);
  if (distance < 1) return true;
  const alongEdge = distance === x || distance === BANNER_WIDTH - x ? y : x;
  const period = 5;
  const phase = (((alongEdge / period) % 1) + 1) % 1;
  const bump = Math.sqrt(Math.max(0, 1 - ((phase - 0.5) * 2) ** 2));
  return distance < 1 + 2.5 * bump;
}

/** Bricks 5 wide and 3 high with 1-pixel mortar, every other course shifted by 3. */
function inBrick(x: number, y: number): boolean {
  const course = Math.floor(y / 4);
  if (y - course * 4 >= 3) return false;
  const shifted = x + (course % 2 === 1 ? 3 : 0);
  return shifted % 6 < 5;
}

/** The daisy: a ring round an open heart, with eight round petals. */
function inFlower(x: number, y: number): boolean {
  const dx = x - CENTRE_X;
  const dy = y - CENTRE_Y;
  const radius = Math.hypot(dx, dy);
  if (radius >= 1.5 && radius <= 3.2) return true;
  for (let petal = 0; petal < 8; petal++) {
    const angle = (petal * Math.PI) / 4;
    if (Math.hypot(dx - 5.4 * Math.cos(angle), dy - 5.4 * Math.sin(angle)) <= 1.6) return true;
  }
  return false;
}

/** The thing: a thick curl open to the right with a small leaf above its opening. */
function inThing(x: number, y: number): boolean {
  const dx = x - CENTRE_X;
  const dy = y - (CENTRE_Y + 1);
  const radius = Math.hypot(dx, dy);
  const angle = Math.atan2(dy, dx);
  const inRing = radius >= 3 && radius <= 6.5;
  const inOpening = angle > -Math.PI / 4 && angle < Math.PI / 5;
  if (inRing && !inOpening) return true;
  // A round end on the lower lip of the curl and a leaf on top, leaning right.
  if (Math.hypot(dx - 4.2, dy - 3.4) <= 1.9) return true;
  return Math.hypot((dx - 3.4) / 2.4, (dy + 7) / 1.2) <= 1;
}

/** The globe: a round outline, then two land masses inside with sea all round them. */
function inGlobe(x: number, y: number): boolean {
  const dx = x - CENTRE_X;
  const dy = y - CENTRE_Y;
  const radius = Math.hypot(dx, dy);
  if (radius > 7.5) return false;
  if (radius >= 6) return true;
  if (radius > 4.8) return false;
  const inLand = (centreX: number, centreY: number, radiusX: number, radiusY: number) =>
    Math.hypot((dx - centreX) / radiusX, (dy - centreY) / radiusY) <= 1;
  return inLand(-1.8, -1.6, 2.4, 3) || inLand(2.6, 2.4, 1.8, 2.4) || inLand(2.8, -3, 1.2, 1);
}

/** The guster: three gusts of wind, waving across the middle of the face. */
function inGusts(x: number, y: number): boolean {
  if (x < 2 || x > BANNER_WIDTH - 2) return false;
  return [14, 20, 26].some(
    (row, index) => Math.abs(y - (row + 1.2 * Math.sin((2 * Math.PI * (x + index * 3)) / 9))) < 1.2,
  );
}

/** Flow: a spiral band turning 1.75 times out from the middle. */
function inFlow(x: number, y: number): boolean {
  const dx = x - CENTRE_X;
  const dy = y - CENTRE_Y;
  const radius = Math.hypot(dx, dy);
  const turns = 1.75;
  const outer = 7.5;
  const step = outer / (turns * 2 * Math.PI);
  const halfWidth = 1.1;
  if (radius < 1.3) return true;
  let angle = Math.atan2(dy, dx);
  if (angle < 0) angle += 2 * Math.PI;
  for (let turn = 0; turn <= Math.ceil(turns); turn++) {
    const armAngle = angle + turn * 2 * Math.PI;
    if (armAngle > turns * 2 * Math.PI) break;
    if (Math.abs(radius - step * armAngle) < halfWidth) return true;
  }
  return false;
}

/** A value clamped to 0..1. */
function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** A picture's column count (its widest row). */
function pictureWidth(rows: readonly string[]): number {
  return Math.max(...rows.map((row) => row.length));
}

/** A picture placed in the middle of the face, its top at `top`. */
function centredPicture(rows: readonly string[], top: number): MaskDrawing {
  return { kind: 'picture', rows, left: Math.floor((BANNER_WIDTH - pictureWidth(rows)) / 2), top };
}

/** The creeper's face (the well-known 8 x 8 face, its inner 6 x 6 drawn at two pixels a cell). */
const CREEPER_PICTURE = [
  '####....####',
  '####....####',
  '####....####',
  '####....####',
  '....####....',
  '....####....',
  '..########..',
  '..########..',
  '..########..',
  '..########..',
  '..##....##..',
  '..##....##..',
];

/** A skull over crossed bones. */
const SKULL_PICTURE = [
  '....######....',
  '...########...',
  '...#..##..#...',
  '...#..##..#...',
  '...###..###...',
  '....#.##.#....',
  '....######....',
  '..............',
  '.##........##.',
  '.###......###.',
  '...###..###...',
  '.....####.....',
  '...###..###...',
  '.###......###.',
  '.##........##.',
];

/** The snout: a rounded nose with two nostrils and a tusk at each side. */
const SNOUT_PICTURE = [
  '..##########..',
  '.############.',
  '.###..##..###.',
  '.###..##..###.',
  '.############.',
  '..##########..',
  '#............#',
  '##..........##',
];

/** How each pattern is drawn. */
const DRAWINGS: Readonly<Record<PatternId, MaskDrawing>> = {
  base: { kind: 'shape', shape: () => true },
  stripe_bottom: { kind: 'shape', shape: (_x, y) => y >= 26 },
  stripe_top: { kind: 'shape', shape: (_x, y) => y < 14 },
  stripe_left: { kind: 'shape', shape: (x) => x < 6 },
  stripe_right: { kind: 'shape', shape: (x) => x >= 14 },
  stripe_center: { kind: 'shape', shape: (x) => x >= 7 && x < 13 },
  stripe_middle: { kind: 'shape', shape: (_x, y) => y >= 17 && y < 23 },
  stripe_downright: { kind: 'shape', shape: (x, y) => onFallingDiagonal(x, y, BEND_HALF_WIDTH) },
  stripe_downleft: { kind: 'shape', shape: (x, y) => onRisingDiagonal(x, y, BEND_HALF_WIDTH) },
  small_stripes: { kind: 'shape', shape: (x) => x >= 1 && x < 19 && (x - 1) % 5 < 3 },
  cross: {
    kind: 'shape',
    shape: (x, y) => onFallingDiagonal(x, y, SALTIRE_HALF_WIDTH) || onRisingDiagonal(x, y, SALTIRE_HALF_WIDTH),
  },
  straight_cross: { kind: 'shape', shape: (x, y) => (x >= 8 && x < 12) || (y >= 18 && y < 22) },
  diagonal_left: { kind: 'shape', shape: (x, y) => x < BANNER_WIDTH - y / 2 },
  diagonal_right: { kind: 'shape', shape: (x, y) => x > y / 2 },
  diagonal_up_left: { kind: 'shape', shape: (x, y) => x < y / 2 },
  diagonal_up_right: { kind: 'shape', shape: (x, y) => x > BANNER_WIDTH - y / 2 },
  half_vertical: { kind: 'shape', shape: (x) => x < CENTRE_X },
  half_vertical_right: { kind: 'shape', shape: (x) => x >= CENTRE_X },
  half_horizontal: { kind: 'shape', shape: (_x, y) => y < CENTRE_Y },
  half_horizontal_bottom: { kind: 'shape', shape: (_x, y) => y >= CENTRE_Y },
  square_bottom_left: { kind: 'shape', shape: (x, y) => x < 10 && y >= 26 },
  square_bottom_right: { kind: 'shape', shape: (x, y) => x >= 10 && y >= 26 },
  square_top_left: { kind: 'shape', shape: (x, y) => x < 10 && y < 14 },
  square_top_right: { kind: 'shape', shape: (x, y) => x >= 10 && y < 14 },
  triangle_bottom: { kind: 'shape', shape: (x, y) => y >= CENTRE_Y && Math.abs(x - CENTRE_X) <= (y - CENTRE_Y) / 2 },
  triangle_top: { kind: 'shape', shape: (x, y) => y <= CENTRE_Y && Math.abs(x - CENTRE_X) <= (CENTRE_Y - y) / 2 },
  triangles_bottom: { kind: 'shape', shape: (x, y) => inBottomTeeth(x, y) },
  triangles_top: { kind: 'shape', shape: (x, y) => inBottomTeeth(x, BANNER_HEIGHT - y) },
  circle: { kind: 'shape', shape: (x, y) => Math.hypot(x - CENTRE_X, y - CENTRE_Y) <= 6 },
  rhombus: { kind: 'shape', shape: (x, y) => Math.abs(x - CENTRE_X) / 6 + Math.abs(y - CENTRE_Y) / 12 <= 1 },
  border: { kind: 'shape', shape: (x, y) => edgeDistance(x, y) < 3 },
  curly_border: { kind: 'shape', shape: (x, y) => inCurlyBorder(x, y) },
  bricks: { kind: 'shape', shape: (x, y) => inBrick(x, y) },
  gradient: { kind: 'alpha', alpha: (_column, row) => clamp01(1 - row / (BANNER_HEIGHT - 1)) },
  gradient_up: { kind: 'alpha', alpha: (_column, row) => clamp01(row / (BANNER_HEIGHT - 1)) },
  creeper: centredPicture(CREEPER_PICTURE, 14),
  skull: centredPicture(SKULL_PICTURE, 13),
  flower: { kind: 'shape', shape: (x, y) => inFlower(x, y) },
  mojang: { kind: 'shape', shape: (x, y) => inThing(x, y) },
  globe: { kind: 'shape', shape: (x, y) => inGlobe(x, y) },
  piglin: centredPicture(SNOUT_PICTURE, 16),
  flow: { kind: 'shape', shape: (x, y) => inFlow(x, y) },
  guster: { kind: 'shape', shape: (x, y) => inGusts(x, y) },
};

/** Draws one mask: coverage 0..1 for each pixel, row by row. */
function drawMask(drawing: MaskDrawing): Float32Array {
  const mask = new Float32Array(BANNER_WIDTH * BANNER_HEIGHT);
  for (let row = 0; row < BANNER_HEIGHT; row++) {
    for (let column = 0; column < BANNER_WIDTH; column++) {
      mask[row * BANNER_WIDTH + column] = coverageAt(drawing, column, row);
    }
  }
  return mask;
}

/** The coverage of one pixel by a drawing. */
function coverageAt(drawing: MaskDrawing, column: number, row: number): number {
  switch (drawing.kind) {
    case 'alpha':
      return drawing.alpha(column, row);
    case 'picture':
      return drawing.rows[row - drawing.top]?.[column - drawing.left] === '#' ? 1 : 0;
    case 'shape': {
      let inside = 0;
      for (let sampleY = 0; sampleY < SAMPLES; sampleY++) {
        for (let sampleX = 0; sampleX < SAMPLES; sampleX++) {
          if (drawing.shape(column + (sampleX + 0.5) / SAMPLES, row + (sampleY + 0.5) / SAMPLES)) inside++;
        }
      }
      return inside / (SAMPLES * SAMPLES);
    }
  }
}

const maskCache = new Map<PatternId, Float32Array>();

/** The coverage mask of a pattern: 20 x 40 values 0..1, row by row (a fresh copy the caller may change). */
export function patternMask(pattern: PatternId): Float32Array {
  let mask = maskCache.get(pattern);
  if (!mask) {
    mask = drawMask(DRAWINGS[pattern]);
    maskCache.set(pattern, mask);
  }
  return mask.slice();
}
