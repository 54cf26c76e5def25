// The answer directory's files for one player: every layout under every id, never replaced by an older version of
// themselves (a slower process's late write), a rename that leaves another player's files alone, and a GIF that could
// not be made leaving only its own layout without a file; a texture's files timed by its registration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerDirectory, type PlayerPictures } from '../../../server/mod/answer-directory.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';
import { buildPlayerAnswers, type PlayerAnswerRow, type PlayerAnswers } from '../../../server/mod/player-answers.ts';

const UUID = '0123456789abcdef0123456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';
const CAPE = 'ab'.repeat(32);
const PICTURES: PlayerPictures = {
  still: Buffer.from('still'),
  strip: Buffer.from('still'),
  gif: Buffer.from('gif'),
  base64Json: Buffer.from('{"textures":{"cape":"c3RpbGw="}}'),
};

/** A player's answers as the server builds them, changed at `second` (seconds since the epoch). */
function answers(uuid: string, username: string, second: number, cape: string | null = CAPE): PlayerAnswers {
  const row = {
    uuid,
    username,
    banned: 0,
    answers_at: second,
    created_at: 0,
    cape_hash: cape,
    cape_strip_hash: null,
    ears_hash: null,
    animated: null,
    glint: null,
    glint_enabled: null,
    dinnerbone: null,
    dinnerbone_enabled: null,
  } as PlayerAnswerRow;
  return buildPlayerAnswers(row, 'https://capes.example.org/textures');
}

describe('answer directory', () => {
  let dir: string;
  let errors: unknown[];
  let directory: AnswerDirectory;
  const exists = (file: string) => fs.existsSync(path.join(dir, file));
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-answer-directory-'));
    errors = [];
    directory = new AnswerDirectory(dir, (error) => errors.push(error));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes every layout under every id as one file, with the answers’ second as its time', () => {
    const player = answers(UUID, 'Bob', 1_800_000_000);
    directory.writePlayer(UUID, player, true, PICTURES);
    for (const id of [UUID, dashedUuid(UUID), 'Bob', 'bob']) {
      expect(read(`profile/${id}`)).toBe(player.json);
      expect(read(`csl/${id}.json`)).toBe(player.cslJson);
      for (const file of [`capes/${id}.png`, `capes/strip/${id}.png`, `elytras/${id}.png`])
        expect(read(file), file).toBe('still');
      expect(read(`capes/${id}.gif`)).toBe('gif');
      expect(read(`csl-minecraftcapes/${id}`)).toBe(PICTURES.base64Json.toString());
    }
    expect(fs.statSync(path.join(dir, 'profile', 'bob')).ino).toBe(fs.statSync(path.join(dir, 'profile', UUID)).ino);
    expect(fs.statSync(path.join(dir, 'profile', UUID)).mtimeMs).toBe(1_800_000_000_000);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('never replaces a newer version with an older one, nor removes it', () => {
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_002, 'cd'.repeat(32)), true, PICTURES);
    const newer = read(`profile/${UUID}`);
    // A slower process writes what it read before the change.
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_001), true, PICTURES);
    expect(read(`profile/${UUID}`)).toBe(newer);
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_001), false, null);
    expect(read(`profile/${UUID}`)).toBe(newer);
  });

  it('on a rename removes the old name’s files, unless the name is another player’s by now', () => {
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_000), true, PICTURES);
    directory.writePlayer(UUID, answers(UUID, 'Alice', 1_800_000_001), true, PICTURES);
    expect(
      exists('capes/Bob.png') || exists('profile/bob') || exists('csl/Bob.json') || exists('csl-minecraftcapes/bob'),
    ).toBe(false);
    expect(read('capes/alice.png')).toBe('still');

    // Alice takes the name Carol; another player has taken "Alice" meanwhile: their files stay.
    directory.writePlayer(OTHER, answers(OTHER, 'Alice', 1_800_000_005), true, PICTURES);
    directory.writePlayer(UUID, answers(UUID, 'Carol', 1_800_000_006), true, PICTURES);
    expect(JSON.parse(read('csl/Alice.json'))).toMatchObject({ username: 'Alice' });
    expect(fs.statSync(path.join(dir, 'profile', 'alice')).ino).toBe(fs.statSync(path.join(dir, 'profile', OTHER)).ino);
  });

  it('removes every file of a player with nothing left to show, or whose account is gone', () => {
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_000), true, PICTURES);
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_001, null), false, null);
    expect(fs.readdirSync(path.join(dir, 'profile'))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'capes'))).toEqual(['strip']);
    expect(fs.readdirSync(path.join(dir, 'csl-minecraftcapes'))).toEqual([]);
    directory.writePlayer(OTHER, answers(OTHER, 'Eve', 1_800_000_000), true, PICTURES);
    directory.writePlayer(OTHER, null, false, null);
    expect(fs.readdirSync(path.join(dir, 'csl'))).toEqual(['textures']);
  });

  it('leaves only the GIF without a file when it could not be made', () => {
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_000), true, PICTURES);
    directory.writePlayer(UUID, answers(UUID, 'Bob', 1_800_000_001), true, { ...PICTURES, gif: null });
    expect(exists('capes/Bob.gif') || exists(`capes/${UUID}.gif`)).toBe(false);
    expect(read('capes/Bob.png')).toBe('still');
    expect(exists(`profile/${UUID}`)).toBe(true);
  });

  it('times a texture’s files by its registration, and puts right a file of another time (written before that rule)', () => {
    const bytes = Buffer.from('texture');
    const registeredAt = 1_800_000_000_500;
    const files = [`textures/${CAPE}`, `textures/${CAPE}.png`, `csl/textures/${CAPE}`, `csl/textures/${CAPE}.png`];
    directory.writeTexture(CAPE, bytes, registeredAt);
    for (const file of files) expect(fs.statSync(path.join(dir, file)).mtimeMs, file).toBe(1_800_000_000_000);
    expect(directory.hasTexture(CAPE, bytes.length, registeredAt)).toBe(true);
    fs.utimesSync(path.join(dir, files[1]!), 1_800_000_100, 1_800_000_100);
    expect(directory.hasTexture(CAPE, bytes.length, registeredAt)).toBe(false);
    directory.writeTexture(CAPE, bytes, registeredAt);
    expect(fs.statSync(path.join(dir, files[1]!)).mtimeMs).toBe(1_800_000_000_000);
    expect(read(files[1]!)).toBe('texture');
    expect(errors).toEqual([]);
  });
});
