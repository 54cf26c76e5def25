// The mod API's answers as files for nginx to serve (ANSWER_FILES_DIR; deploy/nginx/cloakroom.conf): a player's profile
// as `profile/{uuid}.json` and a texture as `textures/{hash}`. A process writes a file when it answers one of those and
// the file is not there (nginx asks a process only then), and removes a player's file on every change notice, so nginx
// never serves an answer the processes no longer give. Every process of a host writes the same directory; each host
// has its own (every process hears every change notice, so each host's files are removed on its own).
//
// A file is written whole under a temporary name and renamed into place, synchronously: nginx sees the old file, no file
// or the new one, never part of one, and no change notice can run between the check that an answer is current and the
// rename. Files older than their lifetime are swept (a player's after the profile cache's lifetime, as the processes
// forget them; a texture's after TEXTURE_FILE_LIFETIME_MS, which bounds how long a texture removed on another host is
// still served).
import fs from 'node:fs';
import path from 'node:path';
import { isPlayerUuid, isTextureHash } from '../../src/lib/ids.ts';

/** How long a texture's file is kept: with the time between sweeps, how long a texture removed on another host (whose processes do not share this directory) may still be served. */
export const TEXTURE_FILE_LIFETIME_MS = 5 * 60_000;

/** What a sweep removed. */
export interface AnswerFilesSweep {
  profiles: number;
  textures: number;
}

/** Writes and removes the answer files of one directory. */
export class AnswerFiles {
  private readonly profileDir: string;
  private readonly textureDir: string;
  private sequence = 0;

  constructor(
    readonly dir: string,
    /** How long a profile's file is kept without a change notice (the profile cache's lifetime). */
    private readonly profileLifetimeMs: number,
    /** Told of a file that could not be written or removed (the answer itself is not affected: nginx keeps asking a process). */
    private readonly onError: (error: unknown) => void,
  ) {
    this.profileDir = path.join(dir, 'profile');
    this.textureDir = path.join(dir, 'textures');
    fs.mkdirSync(this.profileDir, { recursive: true });
    fs.mkdirSync(this.textureDir, { recursive: true });
  }

  /** Writes a player's profile answer (its Last-Modified as the file's time) unless their file is there already. */
  writeProfile(uuid: string, json: string, modifiedAt: number): void {
    if (isPlayerUuid(uuid)) this.write(this.profileFile(uuid), json, modifiedAt);
  }

  /** Writes a texture's bytes under its hash unless its file is there already. */
  writeTexture(hash: string, bytes: Buffer, now = Date.now()): void {
    if (isTextureHash(hash)) this.write(path.join(this.textureDir, hash), bytes, now);
  }

  /** Removes a player's profile file (on every change notice for them). */
  forgetProfile(uuid: string): void {
    if (isPlayerUuid(uuid)) this.remove(this.profileFile(uuid));
  }

  /** Removes a texture's file (the texture was removed from the library). */
  forgetTexture(hash: string): void {
    if (isTextureHash(hash)) this.remove(path.join(this.textureDir, hash));
  }

  /** Removes the files past their lifetime (and temporary files a killed process left); stops early when `signal` aborts. */
  async sweep(now = Date.now(), signal?: AbortSignal): Promise<AnswerFilesSweep> {
    return {
      profiles: await sweepOlder(this.profileDir, now - this.profileLifetimeMs, signal),
      textures: await sweepOlder(this.textureDir, now - TEXTURE_FILE_LIFETIME_MS, signal),
    };
  }

  private profileFile(uuid: string): string {
    return path.join(this.profileDir, `${uuid}.json`);
  }

  private write(file: string, body: string | Buffer, time: number): void {
    if (fs.existsSync(file)) return;
    this.sequence += 1;
    const temporary = `${file}.${process.pid}-${this.sequence}.tmp`;
    try {
      fs.writeFileSync(temporary, body);
      const seconds = time / 1000;
      fs.utimesSync(temporary, seconds, seconds);
      fs.renameSync(temporary, file);
    } catch (error) {
      this.onError(error);
      this.remove(temporary);
    }
  }

  private remove(file: string): void {
    try {
      fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') this.onError(error);
    }
  }
}

/** How many files a sweep looks at before it lets other work run. */
const SWEEP_BATCH = 500;

/** Removes the files of `dir` last modified before `before` (ms), a batch at a time (synchronous calls are several times cheaper than promised ones); resolves to how many. */
async function sweepOlder(dir: string, before: number, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  const names = fs.readdirSync(dir);
  for (let start = 0; start < names.length && !signal?.aborted; start += SWEEP_BATCH) {
    for (const name of names.slice(start, start + SWEEP_BATCH)) {
      const file = path.join(dir, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat || stat.mtimeMs >= before) continue;
      fs.rmSync(file, { force: true });
      removed += 1;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return removed;
}
