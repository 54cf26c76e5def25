// What differs between the cape and the ears upload pages: API calls, accepted files, rules and reset timers.
import {
  CAPE_SIZES,
  checkCapeDimensions,
  checkCapeFile,
  checkEarsDimensions,
  checkEarsFile,
} from '../../lib/texture-rules';
import type { FileTypes } from '../shared/DropZone';
import type { TextureChecks } from '../shared/texture-files';

/** Which texture an upload page handles. */
export type TextureKindName = 'cape' | 'ears';

/**
 * One kind of texture and how its upload page behaves: the files its picker takes and the checks they pass, and more.
 */
export interface TextureKind extends FileTypes, TextureChecks {
  name: TextureKindName;
  /** The API calls that upload the texture and remove it. */
  upload: 'uploadCape' | 'uploadEars';
  remove: 'removeCape' | 'removeEars';
  /** Milliseconds before the page returns to waiting after each outcome. */
  resetMs: { uploaded: number; serverFailure: number; requestError: number };
}

/** The cape page: PNG or GIF, reset 3 s after success or a server-reported failure, 10 s after a request error. */
export const CAPE_KIND: TextureKind = {
  name: 'cape',
  upload: 'uploadCape',
  remove: 'removeCape',
  accept: '.png,.gif',
  typesLabel: `PNG or GIF up to 500 KB, ${CAPE_SIZES}`,
  checkFile: checkCapeFile,
  checkDimensions: checkCapeDimensions,
  animated: true,
  resetMs: { uploaded: 3000, serverFailure: 3000, requestError: 10_000 },
};

/** The ears page: PNG only, 14 × 7, reset 3 s after any outcome. */
export const EARS_KIND: TextureKind = {
  name: 'ears',
  upload: 'uploadEars',
  remove: 'removeEars',
  accept: '.png',
  typesLabel: 'PNG, up to 10 KB, exactly 14 × 7',
  checkFile: checkEarsFile,
  checkDimensions: checkEarsDimensions,
  animated: false,
  resetMs: { uploaded: 3000, serverFailure: 3000, requestError: 3000 },
};
