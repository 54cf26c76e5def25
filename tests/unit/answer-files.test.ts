// The answer files nginx serves: written whole and once, removed on demand, swept after their lifetime, never outside
// their directory, and a failed write or removal is reported rather than thrown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerFiles, TEXTURE_FILE_LIFETIME_MS } from '../../server/mod/answer-files.ts';

const UUID = '0123456789abcdef0123456789abcdef';
const HASH = 'ab'.repeat(32);
const LIFETIME_MS = 300_000;

describe('answer files', () => {
  let dir: string;
  let errors: unknown[];
  let files: AnswerFiles;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-answer-files-'));
    errors = [];
    files = new AnswerFiles(dir, LIFETIME_MS, (error) => errors.push(error));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes a profile under its uuid with the profile's Last-Modified as its time, once, and leaves no temporary file", () => {
    const modifiedAt = Date.parse('2026-11-26T01:00:00Z');
    files.writeProfile(UUID, '{"cape_url":null}', modifiedAt);
    const file = path.join(dir, 'profile', `${UUID}.json`);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"cape_url":null}');
    expect(fs.statSync(file).mtimeMs).toBe(modifiedAt);
    // A file that is there is left alone (nginx asked a process only because it had none).
    files.writeProfile(UUID, '{"other":true}', modifiedAt + 1000);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"cape_url":null}');
    expect(fs.readdirSync(path.join(dir, 'profile'))).toEqual([`${UUID}.json`]);
    expect(errors).toEqual([]);
  });

  it('removes a profile or a texture file on demand, and a missing one is no error', () => {
    files.writeProfile(UUID, '{}', Date.now());
    files.writeTexture(HASH, Buffer.from('png'));
    expect(fs.readFileSync(path.join(dir, 'textures', HASH), 'utf8')).toBe('png');
    files.forgetProfile(UUID);
    files.forgetTexture(HASH);
    files.forgetProfile(UUID);
    expect(fs.readdirSync(path.join(dir, 'profile'))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'textures'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('never writes or removes a name that is not a player uuid or a texture hash', () => {
    fs.writeFileSync(path.join(dir, 'keep.json'), 'keep');
    files.writeProfile('../keep', '{}', Date.now());
    files.forgetProfile('../keep');
    files.writeTexture('../keep.json', Buffer.from('x'));
    files.forgetTexture('../keep.json');
    files.writeProfile(UUID.toUpperCase(), '{}', Date.now());
    expect(fs.readFileSync(path.join(dir, 'keep.json'), 'utf8')).toBe('keep');
    expect(fs.readdirSync(path.join(dir, 'profile'))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'textures'))).toEqual([]);
  });

  it("sweeps profiles past the profile cache's lifetime and textures past theirs, and keeps the rest", async () => {
    const now = Date.now();
    const fresh = '11111111111111111111111111111111';
    files.writeProfile(UUID, '{}', now - LIFETIME_MS - 1000);
    files.writeProfile(fresh, '{}', now - LIFETIME_MS + 5000);
    files.writeTexture(HASH, Buffer.from('old'), now - TEXTURE_FILE_LIFETIME_MS - 1000);
    files.writeTexture('cd'.repeat(32), Buffer.from('new'), now);
    expect(await files.sweep(now)).toEqual({ profiles: 1, textures: 1 });
    expect(fs.readdirSync(path.join(dir, 'profile'))).toEqual([`${fresh}.json`]);
    expect(fs.readdirSync(path.join(dir, 'textures'))).toEqual(['cd'.repeat(32)]);
  });

  it('reports a file it cannot write instead of throwing, and leaves nothing behind', () => {
    fs.rmSync(path.join(dir, 'profile'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'profile'), 'not a directory');
    expect(() => files.writeProfile(UUID, '{}', Date.now())).not.toThrow();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOTDIR');
  });
});
