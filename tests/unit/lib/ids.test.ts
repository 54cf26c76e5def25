// Unit tests for the id patterns: usernames, player uuids (as stored, as typed, as outside services send them) and
// texture hashes.
import { describe, expect, it } from 'vitest';
import {
  dashedUuid,
  isPlayerUuid,
  isTextureHash,
  isUsername,
  normalizeUuid,
  usernameCharacters,
} from '../../../src/lib/ids.ts';
import { playerIdSchema } from '../../../src/lib/schemas/ids.ts';
import { capeFrameHeight, stripFrameCount } from '../../../src/lib/texture-layout.ts';

const UUID = '069a79f444e94726a5befca90e38aaf5';
const DASHED = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

describe('id patterns', () => {
  it('take usernames of 1 to 16 letters, digits and underscores', () => {
    expect(['a', 'Notch', 'jeb_', 'A234567890123456'].every(isUsername)).toBe(true);
    expect(['', 'A2345678901234567', 'has space', 'dash-ed', 'é'].some(isUsername)).toBe(false);
    expect(usernameCharacters('no-tch! é_1')).toBe('notch_1');
  });

  it('store uuids as 32 lowercase hex digits and read dashed or upper-case ones into that form', () => {
    expect(isPlayerUuid(UUID)).toBe(true);
    expect(isPlayerUuid(DASHED)).toBe(false);
    expect(isPlayerUuid(UUID.toUpperCase())).toBe(false);
    expect(normalizeUuid(DASHED.toUpperCase())).toBe(UUID);
    expect(normalizeUuid('Notch')).toBeNull();
    expect(dashedUuid(UUID)).toBe(DASHED);
  });

  it('let a lookup path name a player by username, undashed uuid (any case) or fully dashed uuid, and nothing else', () => {
    for (const id of ['Notch', UUID, UUID.toUpperCase(), DASHED])
      expect(playerIdSchema.safeParse(id).success).toBe(true);
    for (const id of ['069a79f4-44e94726a5befca90e38aaf5', 'a'.repeat(17), ''])
      expect(playerIdSchema.safeParse(id).success).toBe(false);
  });

  it('take texture hashes of 64 lowercase hex digits', () => {
    expect(isTextureHash('ab'.repeat(32))).toBe(true);
    expect(isTextureHash('AB'.repeat(32))).toBe(false);
    expect(isTextureHash('ab'.repeat(31))).toBe(false);
  });
});

describe('strip frames', () => {
  it('are half as tall as they are wide, stacked vertically', () => {
    expect(capeFrameHeight(64)).toBe(32);
    expect(stripFrameCount(128, 64 * 5)).toBe(5);
  });
});
