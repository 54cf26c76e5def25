// What the mod API answers for a player, built from their row once per change: the profile JSON the mod reads,
// CustomSkinAPI's JSON, each with its ETag, and which textures the picture layouts serve. The fast path, the routes and
// the answer files all take a player's answers from here.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { ModProfile } from '../../src/lib/schemas/types.ts';
import { PLAYER_TEXTURE_SELECTION, playerTextureHashes, showsCapeStrip } from '../textures/library/player-columns.ts';
import { playerAnswer, PROFILE_CONTENT_TYPE, type ModAnswer } from './answer-http.ts';

/** A player's answers (kept small: a million of them may be held). */
export interface PlayerAnswers {
  uuid: string;
  /** The player's name as registered (CustomSkinAPI's answer names the player). */
  username: string;
  /** The still cape (an animated cape's first frame); null when there is none to show. */
  capeHash: string | null;
  /** The animated strip while the player's animation is on (what `cape_url` is then), else null. */
  stripHash: string | null;
  earsHash: string | null;
  /** The profile the mod reads, serialized once. */
  json: string;
  etag: string;
  /** CustomSkinAPI's answer, serialized once. */
  cslJson: string;
  cslEtag: string;
  /**
   * The second the answers last changed (users.answers_at), counted from ANSWERS_EPOCH_SECOND: a small integer, so no
   * boxed number per player.
   */
  changedAt: number;
}

/** The second `changedAt` counts from (2020-01-01): seconds since then fit a small integer until 2054. */
const ANSWERS_EPOCH_SECOND = 1_577_836_800;

/** The ETag of a JSON body. */
function etagOf(json: string): string {
  return `"${createHash('sha1').update(json).digest('base64url')}"`;
}

/** What a player without cape, ears or premium features shows: nothing (the mod API answers them 404). */
export const NOTHING_SHOWN: Readonly<ModProfile> = {
  capeGlint: false,
  upsideDown: false,
  animatedCape: false,
  cape_url: null,
  animated_cape_url: null,
  ear_url: null,
};
const emptyJson = JSON.stringify(NOTHING_SHOWN);
/**
 * The body of a player without cape, ears or premium features (the user lookup shows it; the mod API answers such a
 * player 404).
 */
const EMPTY_PROFILE = { json: emptyJson, etag: etagOf(emptyJson) };

/** The columns a player's answers are built from. */
const PLAYER_ANSWER_SELECTION = [
  'users.uuid',
  'users.username',
  'users.banned',
  'users.answers_at',
  'users.created_at',
  ...PLAYER_TEXTURE_SELECTION,
  'premium.animated',
  'premium.glint',
  'premium.glint_enabled',
  'premium.dinnerbone',
  'premium.dinnerbone_enabled',
] as const;

/** The query of players' rows for their answers. */
export function playerAnswerRows(db: Db) {
  return db.selectFrom('users').leftJoin('premium', 'premium.user_uuid', 'users.uuid').select(PLAYER_ANSWER_SELECTION);
}

/** A player's row as playerAnswerRows reads it. */
export type PlayerAnswerRow = Awaited<ReturnType<ReturnType<typeof playerAnswerRows>['executeTakeFirstOrThrow']>>;

/**
 * Loads a player's row by uuid or lowercase name (the newest account with that name); undefined for an unknown player.
 */
export function loadPlayerRow(
  db: Db,
  id: { uuid: string } | { username: string },
): Promise<PlayerAnswerRow | undefined> {
  return playerAnswerRows(db)
    .where('uuid' in id ? 'users.uuid' : 'users.username_lower', '=', 'uuid' in id ? id.uuid : id.username)
    .orderBy('users.created_at', 'desc')
    .executeTakeFirst();
}

/** Builds a player's answers from their row; texture URLs start with `texturesBaseUrl`. */
export function buildPlayerAnswers(row: PlayerAnswerRow, texturesBaseUrl: string): PlayerAnswers {
  const url = (hash: string | null) => (hash && row.banned !== 1 ? `${texturesBaseUrl}/${hash}` : null);
  const textures = playerTextureHashes(row);
  const hasCape = Boolean(textures.cape) && row.banned !== 1;
  const animated = hasCape && showsCapeStrip(row.animated, textures.capeStrip);
  // The mod reads only cape_url and plays it as a strip when its height is not half its width: the strip when the
  // animation is on.
  const profile: ModProfile = {
    capeGlint: hasCape && row.glint === 1 && row.glint_enabled === 1,
    upsideDown: row.dinnerbone === 1 && row.dinnerbone_enabled === 1,
    animatedCape: animated,
    cape_url: url(animated ? textures.capeStrip : textures.cape),
    animated_cape_url: url(textures.capeStrip),
    ear_url: url(textures.ears),
  };
  const json = JSON.stringify(profile);
  // Most players have nothing to show: they share one body and one ETag instead of a copy each.
  const body = json === EMPTY_PROFILE.json ? EMPTY_PROFILE : { json, etag: etagOf(json) };
  const capeHash = hasCape ? textures.cape : null;
  // CustomSkinAPI: the player's name and, when they have a cape, its hash as `cape` and `elytra` (no skins: the loader
  // goes on to its next entry for those).
  const cslJson = JSON.stringify(
    capeHash === null ? { username: row.username } : { username: row.username, cape: capeHash, elytra: capeHash },
  );
  const answersAt = Number(row.answers_at ?? Math.floor(Number(row.created_at) / 1000));
  return {
    uuid: row.uuid,
    username: row.username,
    capeHash,
    stripHash: animated ? textures.capeStrip : null,
    earsHash: row.banned === 1 ? null : textures.ears,
    json: body.json,
    etag: body.etag,
    cslJson,
    cslEtag: etagOf(cslJson),
    changedAt: answersAt - ANSWERS_EPOCH_SECOND,
  };
}

/**
 * Whether a player has anything to show (a cape, ears or a premium feature): only such players have mod API answers;
 * the others are answered 404, as unknown players are.
 */
export function showsSomething(answers: PlayerAnswers): boolean {
  return answers.json !== EMPTY_PROFILE.json;
}

/**
 * When a player's answers last changed, in milliseconds since the epoch (whole seconds): their Last-Modified, and their
 * answer files' time.
 */
export function answersModifiedAt(answers: PlayerAnswers): number {
  return (ANSWERS_EPOCH_SECOND + answers.changedAt) * 1000;
}

/** A player's profile, as the mod reads it. */
export function profileAnswer(answers: PlayerAnswers): ModAnswer {
  return playerAnswer(answers.etag, answersModifiedAt(answers), PROFILE_CONTENT_TYPE, answers.json);
}

/** A player as CustomSkinAPI reads them. */
export function cslAnswer(answers: PlayerAnswers): ModAnswer {
  return playerAnswer(answers.cslEtag, answersModifiedAt(answers), PROFILE_CONTENT_TYPE, answers.cslJson);
}

/** Players read per query when walking all of them. */
const PAGE_SIZE = 2000;

/**
 * Calls `each` with the answers of every player who has something to show, a page at a time in uuid order; resolves to
 * how many players it read. (The query reads the players who may show something, a cape, ears or a premium feature;
 * showsSomething decides.)
 */
export async function forEachShowingPlayer(
  db: Db,
  texturesBaseUrl: string,
  each: (answers: PlayerAnswers) => void | Promise<void>,
): Promise<number> {
  let after = '';
  let read = 0;
  for (;;) {
    const rows = await playerAnswerRows(db)
      .where((eb) =>
        eb.or([
          eb('users.cape_hash', 'is not', null),
          eb('users.ears_hash', 'is not', null),
          eb('premium.dinnerbone', '=', 1),
        ]),
      )
      .where('users.uuid', '>', after)
      .orderBy('users.uuid')
      .limit(PAGE_SIZE)
      .execute();
    for (const row of rows) {
      const answers = buildPlayerAnswers(row, texturesBaseUrl);
      if (showsSomething(answers)) await each(answers);
    }
    read += rows.length;
    if (rows.length < PAGE_SIZE) return read;
    after = rows[rows.length - 1]!.uuid;
  }
}
