// Unit tests for the cape and ears file rules and their exact messages (src/lib/texture-rules.ts).
import { describe, expect, it } from 'vitest';
import {
  CAPE_MAX_BYTES,
  checkCapeDimensions,
  checkCapeFile,
  checkCapeFrames,
  checkEarsDimensions,
  checkEarsFile,
  EARS_MAX_BYTES,
  MAX_CAPE_FRAMES,
  textureMessages,
  typeFromMime,
} from '../../../src/lib/texture-rules.ts';

describe('texture rules', () => {
  it('uses the exact user-facing wording for every message', () => {
    expect(textureMessages).toEqual({
      capeTooBig: 'The cape is too big. Max file size is 500KB.',
      capeType: 'Capes must be either PNG or GIF',
      invalidImage: 'That image is not valid',
      capeTooLarge: 'Capes must be no larger than 2048 x 1024',
      capeDimensions: "The cape isn't the right dimensions. Check out the gallery for some awesome capes.",
      capeTooManyFrames: 'Animated capes can have at most 64 frames',
      earsTooBig: 'The ears are too big. Max file size is 10KB.',
      earsType: 'Ears must be PNG',
      earsDimensions: "The ears aren't the right dimensions. Check out the gallery for some awesome ears.",
    });
    expect(CAPE_MAX_BYTES).toBe(500_000);
    expect(EARS_MAX_BYTES).toBe(10_000);
    expect(MAX_CAPE_FRAMES).toBe(64);
  });

  it('maps browser MIME types to texture types', () => {
    expect(typeFromMime('image/png')).toBe('png');
    expect(typeFromMime('image/gif')).toBe('gif');
    for (const mime of ['image/jpeg', 'image/webp', 'text/plain', '', 'image/PNG', 'image/apng'])
      expect(typeFromMime(mime), mime).toBe('other');
  });

  describe('cape file', () => {
    it('accepts PNG and GIF up to 500,000 bytes and refuses 500,001', () => {
      expect(checkCapeFile({ bytes: 500_000, type: 'png' })).toBeNull();
      expect(checkCapeFile({ bytes: 500_000, type: 'gif' })).toBeNull();
      expect(checkCapeFile({ bytes: 1, type: 'png' })).toBeNull();
      expect(checkCapeFile({ bytes: 500_001, type: 'png' })).toBe('The cape is too big. Max file size is 500KB.');
      expect(checkCapeFile({ bytes: 500_001, type: 'gif' })).toBe(textureMessages.capeTooBig);
    });

    it('refuses any other type with the type message', () => {
      expect(checkCapeFile({ bytes: 100, type: 'other' })).toBe('Capes must be either PNG or GIF');
    });

    it('checks the size before the type', () => {
      expect(checkCapeFile({ bytes: 500_001, type: 'other' })).toBe(textureMessages.capeTooBig);
    });
  });

  describe('cape dimensions', () => {
    it.each([
      [64, 32],
      [128, 64],
      [256, 128],
      [512, 256],
      [1024, 512],
      [2048, 1024],
      [192, 96],
    ])('accepts %i x %i', (width, height) => {
      expect(checkCapeDimensions({ width, height })).toBeNull();
    });

    it.each([
      [4096, 2048],
      [2049, 1024],
      [2048, 1025],
      [2050, 1025],
      [4096, 1024],
    ])('refuses %i x %i as too large', (width, height) => {
      expect(checkCapeDimensions({ width, height })).toBe('Capes must be no larger than 2048 x 1024');
    });

    it.each([
      [64, 33],
      [64, 64],
      [32, 32],
      [128, 32],
      [100, 50],
      [2, 1],
      [66, 33],
      [96, 48],
    ])('refuses %i x %i with the dimensions message, naming the size', (width, height) => {
      expect(checkCapeDimensions({ width, height })).toBe(
        `The cape isn't the right dimensions. Check out the gallery for some awesome capes. This file is ${width} x ${height} pixels.`,
      );
    });

    it('refuses an empty image as not valid', () => {
      expect(checkCapeDimensions({ width: 0, height: 0 })).toBe('That image is not valid');
      expect(checkCapeDimensions({ width: 64, height: 0 })).toBe(textureMessages.invalidImage);
      expect(checkCapeDimensions({ width: 0, height: 32 })).toBe(textureMessages.invalidImage);
    });
  });

  describe('cape frames', () => {
    it('accepts up to 64 frames and refuses 65', () => {
      expect(checkCapeFrames(1)).toBeNull();
      expect(checkCapeFrames(64)).toBeNull();
      expect(checkCapeFrames(65)).toBe('Animated capes can have at most 64 frames');
      expect(checkCapeFrames(10_000)).toBe(textureMessages.capeTooManyFrames);
    });
  });

  describe('ears file', () => {
    it('accepts a PNG up to 10,000 bytes and refuses 10,001', () => {
      expect(checkEarsFile({ bytes: 10_000, type: 'png' })).toBeNull();
      expect(checkEarsFile({ bytes: 10_001, type: 'png' })).toBe('The ears are too big. Max file size is 10KB.');
    });

    it('refuses GIF and other types with the PNG-only message', () => {
      expect(checkEarsFile({ bytes: 100, type: 'gif' })).toBe('Ears must be PNG');
      expect(checkEarsFile({ bytes: 100, type: 'other' })).toBe('Ears must be PNG');
    });

    it('checks the size before the type', () => {
      expect(checkEarsFile({ bytes: 10_001, type: 'gif' })).toBe(textureMessages.earsTooBig);
    });
  });

  describe('ears dimensions', () => {
    it('accepts exactly 14 x 7', () => {
      expect(checkEarsDimensions({ width: 14, height: 7 })).toBeNull();
    });

    it.each([
      [14, 10],
      [15, 7],
      [13, 7],
      [14, 6],
      [28, 14],
      [7, 14],
      [0, 0],
    ])('refuses %i x %i (the old quirk that let one matching side through must not pass)', (width, height) => {
      expect(checkEarsDimensions({ width, height })).toBe(
        `The ears aren't the right dimensions. Check out the gallery for some awesome ears. This file is ${width} x ${height} pixels.`,
      );
    });
  });
});
