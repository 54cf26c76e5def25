// Where each face of the cape, elytra and ears sits on its texture, shared by the template script and pages.

/** One rectangle of a texture that maps to one face of the 3D model. */
export interface TextureRegion {
  /** Stable id, used for keys and test ids. */
  id: string;
  /** Short label drawn on the HD template. */
  label: string;
  /** What the face is, in words, for the template pages. */
  description: string;
  /** Position and size in pixels of the base-size texture. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** The fill colour on the templates (#rrggbb). */
  colour: string;
}

/** Base cape texture size (scale 1). */
export const CAPE_TEMPLATE_SIZE = { width: 64, height: 32 } as const;
/** Ears texture size. */
export const EARS_TEMPLATE_SIZE = { width: 14, height: 7 } as const;

/** The cape and elytra faces of a 64 x 32 cape texture. */
export const CAPE_REGIONS: readonly TextureRegion[] = [
  {
    id: 'cape-top',
    label: 'Top',
    description: 'The top edge of the cape, against the shoulders.',
    x: 1,
    y: 0,
    w: 10,
    h: 1,
    colour: '#f4d35e',
  },
  {
    id: 'cape-bottom',
    label: 'Bottom',
    description: 'The bottom edge of the cape.',
    x: 11,
    y: 0,
    w: 10,
    h: 1,
    colour: '#ee964b',
  },
  {
    id: 'cape-left',
    label: 'Left',
    description: "The cape's left edge (the player's left, seen from behind).",
    x: 0,
    y: 1,
    w: 1,
    h: 16,
    colour: '#3bceac',
  },
  {
    id: 'cape-front',
    label: 'Front',
    description: 'The outside of the cape: what other players see from behind you.',
    x: 1,
    y: 1,
    w: 10,
    h: 16,
    colour: '#e63946',
  },
  {
    id: 'cape-right',
    label: 'Right',
    description: "The cape's right edge (the player's right, seen from behind).",
    x: 11,
    y: 1,
    w: 1,
    h: 16,
    colour: '#0ead69',
  },
  {
    id: 'cape-inner',
    label: 'Back/Inner',
    description: 'The inside of the cape, facing your back.',
    x: 12,
    y: 1,
    w: 10,
    h: 16,
    colour: '#457b9d',
  },
  {
    id: 'elytra-top',
    label: 'Elytra top',
    description: 'The top edge of each elytra wing.',
    x: 24,
    y: 0,
    w: 10,
    h: 2,
    colour: '#c77dff',
  },
  {
    id: 'elytra-bottom',
    label: 'Elytra bottom',
    description: 'The bottom edge of each elytra wing.',
    x: 34,
    y: 0,
    w: 10,
    h: 2,
    colour: '#ff87ab',
  },
  {
    id: 'elytra-side-inner',
    label: 'Elytra side',
    description: 'The edge of each wing nearest the spine.',
    x: 22,
    y: 2,
    w: 2,
    h: 20,
    colour: '#7bdff2',
  },
  {
    id: 'elytra-inner',
    label: 'Elytra inside',
    description: 'The inside of each wing, facing your back.',
    x: 24,
    y: 2,
    w: 10,
    h: 20,
    colour: '#5a189a',
  },
  {
    id: 'elytra-side-outer',
    label: 'Elytra side',
    description: 'The outer edge of each wing.',
    x: 34,
    y: 2,
    w: 2,
    h: 20,
    colour: '#b2f7ef',
  },
  {
    id: 'elytra-outer',
    label: 'Elytra outside',
    description: 'The outside of each wing: what other players see from behind you when you fly.',
    x: 36,
    y: 2,
    w: 10,
    h: 20,
    colour: '#9d4edd',
  },
];

/** The faces of a 14 x 7 ears texture (both ears use the same texture). */
export const EARS_REGIONS: readonly TextureRegion[] = [
  { id: 'ears-top', label: 'Top', description: 'The top edge of each ear.', x: 1, y: 0, w: 6, h: 1, colour: '#f4d35e' },
  {
    id: 'ears-bottom',
    label: 'Bottom',
    description: 'The bottom edge of each ear.',
    x: 7,
    y: 0,
    w: 6,
    h: 1,
    colour: '#ee964b',
  },
  {
    id: 'ears-left',
    label: 'Left',
    description: 'The left edge of each ear, seen from the front.',
    x: 0,
    y: 1,
    w: 1,
    h: 6,
    colour: '#3bceac',
  },
  {
    id: 'ears-front',
    label: 'Front',
    description: 'The front of the ears: what other players see when they face you.',
    x: 1,
    y: 1,
    w: 6,
    h: 6,
    colour: '#e63946',
  },
  {
    id: 'ears-right',
    label: 'Right',
    description: 'The right edge of each ear, seen from the front.',
    x: 7,
    y: 1,
    w: 1,
    h: 6,
    colour: '#0ead69',
  },
  {
    id: 'ears-back',
    label: 'Back',
    description: 'The back of the ears, seen from behind you.',
    x: 8,
    y: 1,
    w: 6,
    h: 6,
    colour: '#457b9d',
  },
];

/** The committed template files under public/, as site paths. */
export const TEMPLATE_FILES = {
  cape: '/templates/cape-template.png',
  capeHd: '/templates/cape-template-hd.png',
  ears: '/templates/ears-template.png',
  earsHd: '/templates/ears-template-hd.png',
  defaultSkin: '/images/default-skin.png',
} as const;

/** How much bigger the HD templates are than the base textures. */
export const HD_SCALE = { cape: 16, ears: 40 } as const;

/**
 * The height of a cape frame: half its width (a still cape, and each frame of an animated strip, is width × width/2).
 */
export function capeFrameHeight(width: number): number {
  return width / 2;
}

/** Whether a cape texture is an animation's strip: taller than one frame. */
export function isCapeStrip(texture: { width: number; height: number }): boolean {
  return texture.height > capeFrameHeight(texture.width);
}

/** How many width × width/2 frames a strip of width × height holds (a whole number only for a valid strip). */
export function stripFrameCount(width: number, height: number): number {
  return height / capeFrameHeight(width);
}
