// What differs between the cape and the ears upload pages: endpoint, accepted files, rules and reset timers (SPEC §4, §5, §9).
import {
  checkCapeDimensions,
  checkCapeFile,
  checkEarsDimensions,
  checkEarsFile,
  textureMessages,
  type TextureType,
} from '../../lib/texture-rules';

/** Which texture an upload page handles. */
export type TextureKindName = 'cape' | 'ears';

/** One kind of texture and how its upload page behaves. */
export interface TextureKind {
  name: TextureKindName;
  /** The API path for POST (upload) and DELETE (remove). */
  endpoint: string;
  /** The file picker's accept attribute. */
  accept: string;
  /** File types the picker describes to the player. */
  typesLabel: string;
  /** Checks size and type before the image is loaded (SPEC §5). */
  checkFile: (file: { bytes: number; type: TextureType }) => string | null;
  /** Checks width and height once the image has loaded (SPEC §5). */
  checkDimensions: (image: { width: number; height: number }) => string | null;
  /** The "too big" message, shown with a link to a compression site. */
  tooBigMessage: string;
  /** Whether a GIF may be animated (its frames are played in the preview). */
  animated: boolean;
  /** Milliseconds before the page returns to waiting after each outcome (SPEC §4). */
  resetMs: { uploaded: number; serverFailure: number; requestError: number };
}

/** The cape page: PNG or GIF, reset 3 s after success or a server-reported failure, 10 s after a request error. */
export const CAPE_KIND: TextureKind = {
  name: 'cape',
  endpoint: '/api/upload-cape',
  accept: '.png,.gif',
  typesLabel: 'PNG or GIF, up to 500 KB, 64 × 32 up to 2048 × 1024',
  checkFile: checkCapeFile,
  checkDimensions: checkCapeDimensions,
  tooBigMessage: textureMessages.capeTooBig,
  animated: true,
  resetMs: { uploaded: 3000, serverFailure: 3000, requestError: 10_000 },
};

/** The ears page: PNG only, 14 × 7, reset 3 s after any outcome. */
export const EARS_KIND: TextureKind = {
  name: 'ears',
  endpoint: '/api/upload-ears',
  accept: '.png',
  typesLabel: 'PNG, up to 10 KB, exactly 14 × 7',
  checkFile: checkEarsFile,
  checkDimensions: checkEarsDimensions,
  tooBigMessage: textureMessages.earsTooBig,
  animated: false,
  resetMs: { uploaded: 3000, serverFailure: 3000, requestError: 3000 },
};
