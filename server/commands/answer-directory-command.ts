// `cloakroom answers rebuild [--force] [--clean]`: builds the answer directory nginx serves the mod API from
// (ANSWER_FILES_DIR) out of the database, with a progress bar. Run it at deploy, after a restore and for a new host.
import fs from 'node:fs';
import { loadConfig } from '../config/index.ts';
import { openSiteDatabase } from './site-database.ts';
import { ImageJobs } from '../textures/image-work/image-jobs.ts';
import { AnswerDirectory } from '../mod/answer-directory.ts';
import { rebuildAnswerDirectory, type RebuildProgress } from '../mod/answer-directory-rebuild.ts';
import { createTextureLibrary } from '../operations/create-library.ts';

/** How `cloakroom answers` is called. */
export const ANSWERS_USAGE = 'cloakroom answers rebuild [--force] [--clean]';

/** A progress bar on a terminal (redrawn in place), or a line every tenth of the way otherwise. */
function progressBar(stream: NodeJS.WriteStream): RebuildProgress & { end(): void } {
  let lastTenth = -1;
  const draw = (done: number, total: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const text = `${Math.round(share * 100)}% (${done.toLocaleString('en')} of ${total.toLocaleString('en')} players and textures)`;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}`);
    } else if (Math.floor(share * 10) > lastTenth) {
      lastTenth = Math.floor(share * 10);
      stream.write(`${text}\n`);
    }
  };
  return Object.assign(draw, { end: () => void (stream.isTTY && stream.write('\n')) });
}

/** Runs `cloakroom answers …`; resolves to the exit code. */
export async function answersCommand(args: string[]): Promise<number> {
  const [action, ...flags] = args;
  if (action !== 'rebuild' || flags.some((flag) => flag !== '--force' && flag !== '--clean')) {
    console.error(`Usage: ${ANSWERS_USAGE}`);
    return 2;
  }
  const config = loadConfig();
  if (!config.answerFilesDir) {
    console.error(
      'ANSWER_FILES_DIR is not set: set it as the app processes have it (docs/operations.md), then run this again.',
    );
    return 2;
  }
  const db = await openSiteDatabase(config);
  // With --clean the directory starts empty (after a restore, whose database is older than the files): nginx answers
  // 404 to what is not written yet, so run it with the site stopped.
  if (flags.includes('--clean')) fs.rmSync(config.answerFilesDir, { recursive: true, force: true });
  const imageJobs = new ImageJobs(config.imageJobs);
  let failures = 0;
  try {
    const library = createTextureLibrary(config, db);
    const reportFailure = (error: unknown) => {
      failures += 1;
      if (failures === 1) console.error(`\nA file could not be written or made: ${(error as Error).message}`);
    };
    const directory = new AnswerDirectory(config.answerFilesDir, reportFailure);
    console.log(`Building the answer directory ${config.answerFilesDir} from the database…`);
    const bar = progressBar(process.stderr);
    const started = Date.now();
    const parts = {
      db,
      library,
      imageJobs,
      texturesBaseUrl: `${config.publicBaseUrl}/textures`,
      onError: reportFailure,
    };
    const result = await rebuildAnswerDirectory(parts, directory, {
      force: flags.includes('--force'),
      onProgress: bar,
    });
    bar.end();
    console.log(
      `Wrote the answers of ${result.players.toLocaleString('en')} players and ${result.textures.toLocaleString('en')} textures, removed ` +
        `${result.removed.toLocaleString('en')} other files, in ${((Date.now() - started) / 1000).toFixed(1)} s. The directory holds every change up to number ${result.mark}.`,
    );
    if (failures > 0) {
      console.error(`${failures} file(s) could not be written, removed or made: see the first error above.`);
      return 1;
    }
    return 0;
  } finally {
    await imageJobs.close();
    await db.destroy();
  }
}
