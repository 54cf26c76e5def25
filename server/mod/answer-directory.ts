// The answer directory (ANSWER_FILES_DIR): the mod API as files, complete and authoritative, for nginx to serve
// (deploy/nginx/cloakroom.conf). Each file's path is its URL's path, so nginx maps a request to a file with no
// rewriting.
import fs from 'node:fs';
import path from 'node:path';
import type { PictureLayout } from '../../src/lib/mod-setup.ts';
import { dashedUuid, isPlayerUuid, isTextureHash } from '../../src/lib/ids.ts';
import { answersModifiedAt, type PlayerAnswers } from './player-answers.ts';
import { CSL_PROFILE_ROUTE, CSL_TEXTURE_ROUTE, PROFILE_ROUTE, TEXTURE_ROUTE } from './answer-http.ts';
import { PICTURE_ROUTES } from './layouts.ts';

/** A player's pictures as the layouts serve them (null: no cape). */
export interface PlayerPictures {
  still: Buffer;
  /** The strip while the animation is on; the still otherwise. */
  strip: Buffer;
  /** The GIF of the strip; null when it could not be made (its layout then has no file). */
  gif: Buffer | null;
  /** The still in base64 inside the JSON CustomSkinLoader's MinecraftCapesAPI loader reads (layouts.ts makes it). */
  base64Json: Buffer;
}

/** Where the directory records the last change it holds (outside every served path). */
const MARK_FILE = '.applied';

/**
 * A file path (relative to the directory) for one id or hash: its URL's path, from the route pattern that answers it.
 */
type FilePath = (value: string) => string;
const fileOf =
  (route: string, parameter: string): FilePath =>
  (value) =>
    route.replace(parameter, value).slice(1);
const PROFILE_PATH = fileOf(PROFILE_ROUTE, ':id');
const CSL_PATH = fileOf(CSL_PROFILE_ROUTE, ':id');
const PICTURE_LAYOUTS = Object.keys(PICTURE_ROUTES) as PictureLayout[];
const PICTURE_PATHS = Object.fromEntries(
  PICTURE_LAYOUTS.map((layout) => [layout, fileOf(PICTURE_ROUTES[layout], ':id')]),
) as Record<PictureLayout, FilePath>;
/**
 * A texture's file paths: where `/textures/{hash}` and CustomSkinAPI's `/csl/textures/{hash}` read it, with and without
 * `.png`.
 */
const TEXTURE_PATHS = [TEXTURE_ROUTE, CSL_TEXTURE_ROUTE].flatMap((route) => [
  fileOf(route, ':hash'),
  fileOf(`${route}.png`, ':hash'),
]);
const texturePaths = (hash: string): string[] => TEXTURE_PATHS.map((file) => file(hash));
/** The directories of the answer files, each a URL path prefix. */
const LAYOUT_DIRS = [
  ...new Set(
    [PROFILE_PATH, CSL_PATH, ...Object.values(PICTURE_PATHS), ...TEXTURE_PATHS].map((file) => path.dirname(file('x'))),
  ),
];

/** The ids a player's files are written under: uuid, dashed uuid, name as registered and lowercase name. */
export function playerIds(uuid: string, username: string): string[] {
  return [...new Set([uuid, dashedUuid(uuid), username, username.toLowerCase()])];
}

/**
 * Writes and removes the files of one answer directory:
 * - every player who has something to show: `profile/{id}`, `csl/{id}.json` and, with a cape, `capes/{id}.png`,
 *   `capes/{id}.gif`, `capes/strip/{id}.png`, `elytras/{id}.png` and `csl-minecraftcapes/{id}`, each under every id
 *   the layouts take: the uuid, the dashed uuid, the name as registered and the lowercase name (hard links of one
 *   file);
 * - every registered texture: `textures/{hash}`, `textures/{hash}.png`, `csl/textures/{hash}` and `.png` (hard links).
 * A path that has no file is a player or texture with nothing to show: nginx answers it 404 itself.
 *
 * A player's files carry the second their answers last changed (users.answers_at, strictly increasing per player where
 * answer files are written, never past the clock) as their time, the same on every host: nginx's ETag (time and size)
 * and Last-Modified change with every change, and a file is never replaced by an older version of itself (a slower
 * process's late write). A texture's files carry the second the texture was registered (textures.created_at), whichever
 * way they were written (a change notice, a catch-up, a rebuild), so every host answers one texture with one ETag and
 * Last-Modified. Every file is written whole under a temporary name and renamed into place: nginx sees the old file, no
 * file or the new one, never part of one.
 */
export class AnswerDirectory {
  private sequence = 0;

  constructor(
    readonly dir: string,
    /** Told of a file that could not be written or removed (the other files still are). */
    private readonly onError: (error: unknown) => void,
  ) {
    for (const layoutDir of LAYOUT_DIRS) fs.mkdirSync(path.join(dir, layoutDir), { recursive: true });
  }

  /**
   * Makes a player's files match their answers: written when they have something to show (`pictures` when they have a
   * cape), removed when they have nothing (`answers` null: the account is gone). Files of a newer version are left as
   * they are; with `force`, files of the same version are written again (a rebuild after the site's address changed).
   */
  writePlayer(
    uuid: string,
    answers: PlayerAnswers | null,
    shows: boolean,
    pictures: PlayerPictures | null,
    force = false,
  ): void {
    if (!isPlayerUuid(uuid)) return;
    const version = answers ? answersModifiedAt(answers) / 1000 : Infinity;
    const previousName = this.writtenName(uuid);
    const ids = answers && shows ? playerIds(uuid, answers.username) : [];
    // The names it no longer has (renamed, or nothing to show): removed while they are still this player's files.
    const oldIds = previousName === null ? [uuid, dashedUuid(uuid)] : playerIds(uuid, previousName);
    for (const layoutPath of [PROFILE_PATH, CSL_PATH, ...Object.values(PICTURE_PATHS)]) {
      const own = this.inode(layoutPath(uuid));
      for (const id of oldIds) {
        if (ids.includes(id) && this.keeps(layoutPath, pictures)) continue;
        const file = layoutPath(id);
        // A name's file may since be another player's (who took the name): only this player's own file goes.
        if (id !== uuid && id !== dashedUuid(uuid) && this.inode(file) !== own) continue;
        this.removeUnlessNewer(file, version);
      }
    }
    if (!answers || !shows) return;
    const bodies: Array<{ body: string | Buffer; paths: FilePath[] }> = [];
    if (pictures) {
      bodies.push({ body: pictures.still, paths: [PICTURE_PATHS.still, PICTURE_PATHS.elytra] });
      if (pictures.strip === pictures.still) bodies[0]!.paths.push(PICTURE_PATHS.strip);
      else bodies.push({ body: pictures.strip, paths: [PICTURE_PATHS.strip] });
      if (pictures.gif) bodies.push({ body: pictures.gif, paths: [PICTURE_PATHS.gif] });
      bodies.push({ body: pictures.base64Json, paths: [PICTURE_PATHS.minecraftCapesApi] });
    }
    bodies.push({ body: answers.cslJson, paths: [CSL_PATH] });
    bodies.push({ body: answers.json, paths: [PROFILE_PATH] });
    for (const { body, paths } of bodies) {
      const files = paths
        .flatMap((layoutPath) => ids.map(layoutPath))
        .filter((file) => this.needsWrite(file, version, byteLength(body), force));
      this.place(files, body, version);
    }
  }

  /**
   * Writes a texture's files, with the second it was registered (`createdAt`, in ms) as their time, unless they are
   * there with its size and that time (a texture's bytes never change).
   */
  writeTexture(hash: string, bytes: Buffer, createdAt: number): void {
    if (!isTextureHash(hash)) return;
    const seconds = Math.floor(createdAt / 1000);
    const files = texturePaths(hash).filter((file) => !this.holdsTexture(file, bytes.length, seconds));
    this.place(files, bytes, seconds);
  }

  /** Whether a texture's files are all there with its size and the second it was registered (`createdAt`, in ms). */
  hasTexture(hash: string, size: number, createdAt: number): boolean {
    const seconds = Math.floor(createdAt / 1000);
    return texturePaths(hash).every((file) => this.holdsTexture(file, size, seconds));
  }

  /** Removes a texture's files (it was released, or a moderator removed it). */
  removeTexture(hash: string): void {
    if (isTextureHash(hash)) for (const file of texturePaths(hash)) this.remove(file);
  }

  /** The number of the last change this directory holds, or null when it was never built. */
  readMark(): number | null {
    try {
      const value = Number(fs.readFileSync(this.full(MARK_FILE), 'utf8'));
      return Number.isSafeInteger(value) ? value : null;
    } catch {
      return null;
    }
  }

  /** Records that the directory holds every change up to `seq` (never moving the mark back). */
  writeMark(seq: number): void {
    if ((this.readMark() ?? -1) >= seq) return;
    this.place([MARK_FILE], String(seq), Date.now() / 1000);
  }

  /**
   * Removes every file whose id or hash is not kept (a rebuild's last step), and temporary files a killed process left;
   * returns how many.
   */
  removeOthers(keepIds: Set<string>, keepHashes: Set<string>): number {
    let removed = 0;
    for (const layoutDir of LAYOUT_DIRS) {
      const isTextures = layoutDir.endsWith('textures');
      for (const entry of fs.readdirSync(this.full(layoutDir), { withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const key = entry.name.replace(/\.(png|gif|json)$/, '');
        if (isTextures ? keepHashes.has(key) : keepIds.has(key)) continue;
        this.remove(`${layoutDir}/${entry.name}`);
        removed += 1;
      }
    }
    // A temporary file changed in the last minute may be a running process's write in progress.
    const settled = Date.now() - 60_000;
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith('.tmp') || (fs.statSync(this.full(name), { throwIfNoEntry: false })?.ctimeMs ?? 0) > settled)
        continue;
      this.remove(name);
      removed += 1;
    }
    return removed;
  }

  /** Whether a layout has a file for a player who shows something, with these pictures. */
  private keeps(layoutPath: FilePath, pictures: PlayerPictures | null): boolean {
    if (layoutPath === PROFILE_PATH || layoutPath === CSL_PATH) return true;
    if (!pictures) return false;
    return layoutPath !== PICTURE_PATHS.gif || pictures.gif !== null;
  }

  /** The name a player's files were last written under (from their CustomSkinAPI file), or null when they have none. */
  private writtenName(uuid: string): string | null {
    try {
      const { username } = JSON.parse(fs.readFileSync(this.full(CSL_PATH(uuid)), 'utf8')) as { username?: unknown };
      return typeof username === 'string' ? username : null;
    } catch {
      return null;
    }
  }

  private full(file: string): string {
    return path.join(this.dir, file);
  }

  /**
   * Whether a texture's file is there with its size and time (content-addressed: a file of the right size is the
   * texture).
   */
  private holdsTexture(file: string, size: number, seconds: number): boolean {
    const stat = fs.statSync(this.full(file), { throwIfNoEntry: false });
    return stat !== undefined && stat.size === size && Math.floor(stat.mtimeMs / 1000) === seconds;
  }

  private inode(file: string): number | null {
    return fs.statSync(this.full(file), { throwIfNoEntry: false })?.ino ?? null;
  }

  /** Whether a file must be written for `version`: missing, older, or (forced, or of another size) the same version. */
  private needsWrite(file: string, version: number, size: number, force: boolean): boolean {
    const stat = fs.statSync(this.full(file), { throwIfNoEntry: false });
    if (!stat) return true;
    const written = Math.floor(stat.mtimeMs / 1000);
    return written < version || (written === version && (force || stat.size !== size));
  }

  private removeUnlessNewer(file: string, version: number): void {
    const stat = fs.statSync(this.full(file), { throwIfNoEntry: false });
    if (stat && Math.floor(stat.mtimeMs / 1000) <= version) this.remove(file);
  }

  /**
   * Writes `body` once with `seconds` as its time and puts it in place under every file name (hard links of one file).
   */
  private place(files: string[], body: string | Buffer, seconds: number): void {
    if (files.length === 0) return;
    const temporary = this.temporaryName();
    try {
      fs.writeFileSync(this.full(temporary), body);
      fs.utimesSync(this.full(temporary), seconds, seconds);
      for (const file of files) {
        const link = this.temporaryName();
        fs.linkSync(this.full(temporary), this.full(link));
        fs.renameSync(this.full(link), this.full(file));
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.remove(temporary);
    }
  }

  /** A temporary file name in the directory's root (the same file system as every file, outside every served path). */
  private temporaryName(): string {
    this.sequence += 1;
    return `.${process.pid}-${this.sequence}.tmp`;
  }

  private remove(file: string): void {
    try {
      fs.rmSync(this.full(file), { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') this.onError(error);
    }
  }
}

function byteLength(body: string | Buffer): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}
