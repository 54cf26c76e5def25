// Building an answer directory from the database: a player's pictures as the layouts serve them, and a whole directory
// (`cloakroom answers rebuild`, and a process whose directory was never built or is older than the change log).
import type { Db } from '../db/database.ts';
import { latestChange } from '../events/change-log.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { playerIds, type AnswerDirectory, type PlayerPictures } from './answer-directory.ts';
import { base64CapeJson, readPicture } from './layouts.ts';
import { forEachShowingPlayer, type PlayerAnswers } from './player-answers.ts';

/** What reading pictures takes. */
export interface PictureParts {
  library: TextureLibrary;
  imageJobs: ImageJobs;
}

/** What a rebuild takes. */
export interface RebuildParts extends PictureParts {
  db: Db;
  texturesBaseUrl: string;
  /** Told of a picture that could not be made (the rebuild goes on without it). */
  onError: (error: unknown) => void;
}

/** A rebuild's progress: what it has written so far out of the total. */
export type RebuildProgress = (done: number, total: number) => void;

/** What a rebuild did. */
export interface RebuildResult {
  players: number;
  textures: number;
  removed: number;
  /** The change log number the directory is complete up to. */
  mark: number;
}

/** Textures read per query. */
const TEXTURE_PAGE = 2000;

/**
 * A player's pictures as the layouts serve them: the still cape (and MinecraftCapesAPI's JSON holding it), the strip
 * (the still while the animation is off) and the GIF of the strip, made once per texture and charged to the player (null, and told to `onGifError`, when it cannot
 * be made: the player's image work budget is spent, say); null without a cape, or when a texture is gone (a change
 * notice about that follows).
 */
export async function readPlayerPictures(
  parts: PictureParts,
  answers: PlayerAnswers,
  onGifError: (error: unknown) => void,
): Promise<PlayerPictures | null> {
  if (answers.capeHash === null) return null;
  const still = await parts.library.readRegistered(answers.capeHash);
  const strip = answers.stripHash === null ? still : await parts.library.readRegistered(answers.stripHash);
  if (!still || !strip) return null;
  const gif = await readPicture(
    parts.library,
    parts.imageJobs,
    { hash: answers.stripHash ?? answers.capeHash, form: 'gif' },
    answers.uuid,
  ).catch((error: unknown) => {
    onGifError(error);
    return null;
  });
  return { still, strip, gif, base64Json: base64CapeJson(still) };
}

/**
 * Writes every showing player's and every registered texture's files, then removes every other file; records the change
 * log number it started at as the directory's mark (later changes are the running processes' to write). With `force`,
 * files of the same version are written again.
 */
export async function rebuildAnswerDirectory(
  parts: RebuildParts,
  directory: AnswerDirectory,
  options: { force: boolean; onProgress?: RebuildProgress },
): Promise<RebuildResult> {
  const { db } = parts;
  const mark = await latestChange(db);
  const textureCount = Number(
    (
      await db
        .selectFrom('textures')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('withheld_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const keepIds = new Set<string>();
  const keepHashes = new Set<string>();
  let players = 0;
  // The players' count is known once they are read: the progress total grows to it.
  let total = textureCount;
  const progress = () => options.onProgress?.(players + keepHashes.size, total);
  await forEachShowingPlayer(db, parts.texturesBaseUrl, async (answers) => {
    const pictures = await readPlayerPictures(parts, answers, parts.onError);
    directory.writePlayer(answers.uuid, answers, true, pictures, options.force);
    for (const id of playerIds(answers.uuid, answers.username)) keepIds.add(id);
    players += 1;
    total += 1;
    if (players % 100 === 0) progress();
  });
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('textures')
      .select(['hash', 'bytes', 'created_at'])
      .where('hash', '>', after)
      // A withheld texture has no file (removeOthers below takes away one written before).
      .where('withheld_at', 'is', null)
      .orderBy('hash')
      .limit(TEXTURE_PAGE)
      .execute();
    for (const row of rows) {
      if (!directory.hasTexture(row.hash, Number(row.bytes), Number(row.created_at))) {
        const bytes = await parts.library.read(row.hash);
        if (bytes) directory.writeTexture(row.hash, bytes, Number(row.created_at));
      }
      keepHashes.add(row.hash);
    }
    progress();
    if (rows.length < TEXTURE_PAGE) break;
    after = rows[rows.length - 1]!.hash;
  }
  const removed = directory.removeOthers(keepIds, keepHashes);
  directory.writeMark(mark);
  progress();
  return { players, textures: keepHashes.size, removed, mark };
}
