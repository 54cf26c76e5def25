// Keeps a process's view of the mod API in step with the database: on every change notice (this process's own change,
// before its answer, or another's through Redis) it drops the player's cached profile, updates which players have
// something to show, reads the player's pictures (making the cape's GIF when it is missing, as the player's work) and,
// with an answer directory, writes or removes the player's or texture's files. Notices it missed
// (Redis down, a restart) it takes from the change log, which it reads every `catchUpMs` (MOD_CATCH_UP_S).
import type { Db } from '../db/database.ts';
import { changesAfter, latestChange, oldestChange, type LoggedChange } from '../events/change-log.ts';
import type { ChangeNotice } from '../events/invalidation.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { isPlayerUuid, isTextureHash } from '../../src/lib/ids.ts';
import type { AnswerDirectory } from './answer-directory.ts';
import { rebuildAnswerDirectory, readPlayerPictures } from './answer-directory-rebuild.ts';
import { buildPlayerAnswers, forEachShowingPlayer, loadPlayerRow, showsSomething } from './player-answers.ts';
import type { ProfileCache } from './profiles.ts';
import type { ShowingPlayers } from './showing-players.ts';

/**
 * How long a number missing from the log is waited for (a change whose transaction had not committed yet) before it is
 * passed over.
 */
const GAP_WAIT_MS = 30_000;
/** Changes read from the log per query. */
const LOG_PAGE = 1000;

/** What the sync works with. */
export interface AnswerSyncParts {
  db: Db;
  profiles: ProfileCache;
  showing: ShowingPlayers;
  library: TextureLibrary;
  imageJobs: ImageJobs;
  texturesBaseUrl: string;
  directory: AnswerDirectory | undefined;
  /**
   * How often the change log is read for notices this process missed: a missed change is seen within this (and the
   * read).
   */
  catchUpMs: number;
  /** Told of a change that could not be handled (it is handled again at the next catch-up) and of a failed catch-up. */
  onError: (error: unknown) => void;
  /** Told of what the start did (a catch-up or a rebuild of the directory). */
  onInfo: (message: string) => void;
}

/** The mod API's view of the database in this process, kept in step by change notices and the change log. */
export class AnswerSync {
  /** The change log number up to which every change was handled here. */
  private mark = 0;
  /** Changes beyond the mark handled already (from notices), so the catch-up does not handle them again. */
  private readonly handledAhead = new Set<number>();
  /** The handling of each subject in progress: notices about one subject are handled in turn. */
  private readonly inProgress = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private catchingUp: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly parts: AnswerSyncParts) {}

  /**
   * Handles a change notice (never throws: a failure is reported and the change is handled again at the next catch-up).
   */
  async handle(notice: ChangeNotice): Promise<void> {
    try {
      await this.handleSubject(notice.subject);
      if (notice.seq > this.mark) this.handledAhead.add(notice.seq);
    } catch (error) {
      this.parts.onError(error);
    }
  }

  /**
   * Loads which players have something to show and brings the answer directory up to date: from the change log when it
   * holds every change since the directory's mark, else by rebuilding it (in the background); then catches up every
   * `catchUpMs`.
   */
  async start(): Promise<void> {
    const { db, showing, directory, texturesBaseUrl } = this.parts;
    const latest = await latestChange(db);
    const directoryMark = directory?.readMark() ?? null;
    const oldest = await oldestChange(db);
    const logCovers = directoryMark !== null && (oldest === null || oldest <= directoryMark + 1);
    await forEachShowingPlayer(db, texturesBaseUrl, (answers) => showing.update(answers.uuid, answers));
    showing.markLoaded();
    if (directory && !logCovers) {
      this.mark = latest;
      this.parts.onInfo(
        `the answer directory ${directory.dir} ${directoryMark === null ? 'was never built' : 'is older than the change log'}: rebuilding it`,
      );
      this.catchingUp = rebuildAnswerDirectory(this.parts, directory, { force: false })
        .then((result) =>
          this.parts.onInfo(`answer directory rebuilt: ${result.players} players, ${result.textures} textures`),
        )
        .catch(this.parts.onError)
        .finally(() => (this.catchingUp = undefined));
    } else {
      // Without a directory only this process's memory is to keep, and it was just loaded.
      this.mark = directory ? directoryMark! : latest;
      await this.catchUp();
    }
    if (!this.stopped) this.schedule();
  }

  /** Stops the catch-ups and waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.catchingUp;
  }

  /** Handles every logged change this process has not handled yet (one catch-up at a time). */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.readLog().finally(() => (this.catchingUp = undefined));
    return this.catchingUp;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.catchUp()
        .catch(this.parts.onError)
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.parts.catchUpMs);
    this.timer.unref();
  }

  private async readLog(): Promise<void> {
    for (;;) {
      const changes = await changesAfter(this.parts.db, this.mark, LOG_PAGE);
      for (const change of changes) {
        // A change that fails is reported and passed over: one bad change never holds up the log (the subject's next
        // change handles it again).
        if (!this.handledAhead.has(change.seq)) await this.handleSubject(change.subject).catch(this.parts.onError);
        this.handledAhead.add(change.seq);
      }
      this.advanceMark(changes);
      this.parts.directory?.writeMark(this.mark);
      if (changes.length < LOG_PAGE || this.stopped) return;
    }
  }

  /**
   * Moves the mark over the handled changes that follow it without a gap (a gap older than GAP_WAIT_MS is passed over).
   */
  private advanceMark(changes: LoggedChange[], now = Date.now()): void {
    for (const change of changes) {
      if (change.seq !== this.mark + 1 && now - change.createdAt < GAP_WAIT_MS) break;
      this.mark = change.seq;
    }
    for (const seq of this.handledAhead) if (seq <= this.mark) this.handledAhead.delete(seq);
  }

  /** Handles a subject after the handling of it in progress (if any). */
  private handleSubject(subject: string): Promise<void> {
    const previous = this.inProgress.get(subject) ?? Promise.resolve();
    const next = previous.then(() =>
      isPlayerUuid(subject)
        ? this.applyPlayer(subject)
        : isTextureHash(subject)
          ? this.applyTexture(subject)
          : undefined,
    );
    const settled = next.catch(() => undefined);
    this.inProgress.set(subject, settled);
    void settled.then(() => {
      if (this.inProgress.get(subject) === settled) this.inProgress.delete(subject);
    });
    return next;
  }

  private async applyPlayer(uuid: string): Promise<void> {
    const { db, profiles, showing, directory, texturesBaseUrl } = this.parts;
    profiles.invalidate(uuid);
    const row = await loadPlayerRow(db, { uuid });
    const answers = row ? buildPlayerAnswers(row, texturesBaseUrl) : null;
    showing.update(uuid, answers);
    const shows = answers !== null && showsSomething(answers);
    // Read (and the cape's GIF made, charged to the player, when a grant or a refund changed the picture it shows) at
    // change time, with or without answer files, so that no reader ever causes that work.
    const pictures = answers && shows ? await readPlayerPictures(this.parts, answers, this.parts.onError) : null;
    directory?.writePlayer(uuid, answers, shows, pictures);
  }

  private async applyTexture(hash: string): Promise<void> {
    const { library, directory } = this.parts;
    // Registered or not, as the database says now: a texture released on another process leaves this one's memory too.
    const bytes = await library.readRegistered(hash, Date.now(), { recheck: true });
    if (!bytes) library.forget(hash);
    if (!directory) return;
    // Timed by the texture's registration, as a rebuild writes it: every host's file has one time.
    const registeredAt = bytes ? await library.registeredAt(hash) : null;
    if (bytes && registeredAt !== null) directory.writeTexture(hash, bytes, registeredAt);
    else directory.removeTexture(hash);
  }
}
