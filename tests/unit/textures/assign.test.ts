// Texture assignment (server/textures/library/assign.ts), as a player's own change reaches it through
// setPlayerTextures: a cape's GIF is made first, the slot points at stored textures in one step, what it replaced is
// released, every change is published, and a player who is gone keeps nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { upsertUser } from '../../../server/db/users.ts';
import { LocalBlobStore } from '../../../server/storage/local-store.ts';
import { clearPlayerTextures, takeOffEveryWearer, type SlotTextures } from '../../../server/textures/library/assign.ts';
import {
  setPlayerTextures,
  type CapeGifWork,
  type PlayerTexturesContext,
} from '../../../server/textures/intake/set-player-textures.ts';
import { derivedKey, TextureLibrary } from '../../../server/textures/library/texture-library.ts';
import type { WardrobeOrigin } from '../../../server/textures/library/wardrobe-items.ts';
import { sha256, type EncodedTexture } from '../../../server/textures/pipeline/process.ts';

const UUID = '0123456789abcdef0123456789abcdef';

let root: string;
let db: Db;
let context: PlayerTexturesContext;
/** Where the test's textures come from: uploads, kept in the wardrobe. */
const UPLOAD = { source: 'upload' } as const;
let published: string[];
/** The GIFs made, by whose work, and whether the change was published yet when each was made. */
let gifJobs: Array<{ owner: string; publishedBefore: number }>;
/** When set, the GIF work is refused with this message (as the queue refuses work beyond a player's budget). */
let gifRefusal: string | null;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-assign-'));
  db = openDatabase(`sqlite:${path.join(root, 'test.db')}`);
  await migrateToLatest(db);
  published = [];
  gifJobs = [];
  gifRefusal = null;
  const bus = { publish: async (uuid: string) => void published.push(uuid), close: async () => {} };
  // The GIF work as the image queue runs it, on the stand-in textures: a GIF "made" from the picture's bytes.
  const imageJobs: CapeGifWork = {
    attempt: async (_name, picture, owner) => {
      if (gifRefusal) return { refusal: { reason: 'rate_limited', message: gifRefusal } };
      gifJobs.push({ owner, publishedBefore: published.length });
      return { value: Buffer.concat([Buffer.from('GIF of '), picture]) };
    },
  };
  const library = new TextureLibrary(db, new LocalBlobStore(path.join(root, 'textures')));
  context = { db, library, bus, imageJobs, config: { wardrobeItems: 30 } };
  await upsertUser(db, UUID, 'Wearer');
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A stand-in texture (the library stores bytes as they are). */
function texture(text: string, frames = 1): EncodedTexture {
  const bytes = Buffer.from(text);
  return { bytes, hash: sha256(bytes), width: 64, height: 32 * frames, frames };
}

async function columns() {
  return db
    .selectFrom('users')
    .select(['cape_hash', 'cape_strip_hash', 'ears_hash'])
    .where('uuid', '=', UUID)
    .executeTakeFirstOrThrow();
}

/** The player's wardrobe rows, oldest first. */
async function wardrobe() {
  return db
    .selectFrom('wardrobe_items')
    .select(['kind', 'hash', 'still_hash'])
    .where('user_uuid', '=', UUID)
    .orderBy('added_at')
    .orderBy('hash')
    .execute();
}

/** Puts textures on the test's player as their own change does (setPlayerTextures); answers its refusal, or null. */
function putOn(slot: 'cape' | 'ears', textures: SlotTextures, origin: WardrobeOrigin | null) {
  return setPlayerTextures(context, UUID, slot, { textures, origin });
}

async function stored(hash: string): Promise<boolean> {
  return (await context.library.readRegistered(hash)) !== null;
}

describe('a player putting textures on (setPlayerTextures)', () => {
  it('makes a cape’s GIF as the player’s own work and stores it beside the cape before the change is published', async () => {
    const animated = { still: texture('still gif'), strip: texture('strip gif', 2) };
    await putOn('cape', animated, UPLOAD);
    expect(gifJobs).toEqual([{ owner: UUID, publishedBefore: 0 }]);
    expect(
      await context.library.read(derivedKey(animated.still.hash, 'gif')),
      'the still: the animation is off',
    ).toEqual(Buffer.from('GIF of still gif'));

    await db.insertInto('premium').values({ user_uuid: UUID, animated: 1 }).execute();
    const playing = { still: texture('still two'), strip: texture('strip two', 2) };
    await putOn('cape', playing, UPLOAD);
    expect(gifJobs).toEqual([
      { owner: UUID, publishedBefore: 0 },
      { owner: UUID, publishedBefore: 1 },
    ]);
    expect(await context.library.read(derivedKey(playing.strip.hash, 'gif')), 'the strip: the animation is on').toEqual(
      Buffer.from('GIF of strip two'),
    );

    const still = { still: texture('plain still'), strip: null };
    await putOn('cape', still, UPLOAD);
    expect(await context.library.read(derivedKey(still.still.hash, 'gif')), 'a still cape’s one-frame GIF').toEqual(
      Buffer.from('GIF of plain still'),
    );
    await putOn('ears', { still: texture('ears'), strip: null }, UPLOAD);
    expect(gifJobs, 'ears have no GIF').toHaveLength(3);
  });

  it('changes nothing when the GIF work is refused (the player’s budget is spent)', async () => {
    const first = { still: texture('worn'), strip: null };
    await putOn('cape', first, UPLOAD);
    gifRefusal = 'You have used your share of picture processing for now. Try again in a minute.';
    const second = { still: texture('refused'), strip: texture('refused strip', 2) };
    expect(await putOn('cape', second, UPLOAD)).toEqual({ refusal: { reason: 'rate_limited', message: gifRefusal } });
    expect(await columns()).toEqual({ cape_hash: first.still.hash, cape_strip_hash: null, ears_hash: null });
    expect(published).toEqual([UUID]);
    expect(await stored(second.still.hash)).toBe(false);
    expect(await context.library.read(second.strip.hash), 'nothing of it was written').toBeNull();
  });

  it('points the slot at the still and strip, keeps what they replace in the wardrobe and publishes each change', async () => {
    const first = { still: texture('still one'), strip: texture('strip one', 2) };
    await putOn('cape', first, UPLOAD);
    expect(await columns()).toEqual({
      cape_hash: first.still.hash,
      cape_strip_hash: first.strip.hash,
      ears_hash: null,
    });

    const second = { still: first.still, strip: null };
    await putOn('cape', second, UPLOAD);
    expect(await columns()).toEqual({ cape_hash: first.still.hash, cape_strip_hash: null, ears_hash: null });
    expect(await stored(first.still.hash)).toBe(true);
    expect(await stored(first.strip.hash), 'the strip no one wears, kept in the wardrobe').toBe(true);
    expect(await wardrobe()).toEqual(
      expect.arrayContaining([
        { kind: 'cape', hash: first.strip.hash, still_hash: first.still.hash },
        { kind: 'cape', hash: first.still.hash, still_hash: null },
      ]),
    );
    expect(await wardrobe()).toHaveLength(2);
    expect(published).toEqual([UUID, UUID]);
  });

  it('leaves nothing stored for a player who is gone', async () => {
    await db.deleteFrom('users').where('uuid', '=', UUID).execute();
    const textures = { still: texture('orphan still'), strip: texture('orphan strip', 2) };
    await putOn('cape', textures, UPLOAD);
    expect(await stored(textures.still.hash)).toBe(false);
    expect(await stored(textures.strip.hash)).toBe(false);
  });
});

describe('clearPlayerTextures', () => {
  it('empties the named slots, or all of them, keeping their textures in the wardrobe', async () => {
    const cape = { still: texture('cape'), strip: texture('cape strip', 2) };
    const ears = { still: texture('ears'), strip: null };
    await putOn('cape', cape, UPLOAD);
    await putOn('ears', ears, UPLOAD);

    await clearPlayerTextures(context, UUID, ['ears']);
    expect(await columns()).toEqual({ cape_hash: cape.still.hash, cape_strip_hash: cape.strip.hash, ears_hash: null });
    expect(await stored(ears.still.hash)).toBe(true);

    await clearPlayerTextures(context, UUID);
    expect(await columns()).toEqual({ cape_hash: null, cape_strip_hash: null, ears_hash: null });
    expect(await stored(cape.still.hash)).toBe(true);
    expect(await stored(cape.strip.hash)).toBe(true);
    expect((await wardrobe()).map((item) => item.hash).sort()).toEqual([cape.strip.hash, ears.still.hash].sort());
    expect(published).toEqual([UUID, UUID, UUID, UUID]);
  });
});

describe('the wardrobe', () => {
  it('keeps each picture once, with where it came from, and its title when it came from the gallery', async () => {
    const cape = { still: texture('kept cape'), strip: null };
    await putOn('cape', cape, UPLOAD);
    await putOn('cape', cape, { source: 'gallery', ref: 'a'.repeat(64), title: 'Later' });
    const rows = await db.selectFrom('wardrobe_items').selectAll().where('user_uuid', '=', UUID).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'cape', hash: cape.still.hash, source: 'upload', title: null });
    expect(rows[0]!.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('lets the oldest unworn item go when full, releases its picture and remembers it for the page', async () => {
    context.config.wardrobeItems = 3;
    const capes = ['one', 'two', 'three'].map((name) => ({ still: texture(`cape ${name}`), strip: null }));
    for (const cape of capes) await putOn('cape', cape, UPLOAD);
    // The oldest is worn again, so the next one in makes the second go.
    await putOn('cape', capes[0]!, null);
    await db.updateTable('wardrobe_items').set({ added_at: 1 }).where('hash', '=', capes[0]!.still.hash).execute();
    await db.updateTable('wardrobe_items').set({ added_at: 2 }).where('hash', '=', capes[1]!.still.hash).execute();
    const ears = { still: texture('new ears'), strip: null };
    await putOn('ears', ears, { source: 'gallery', ref: 'b'.repeat(64), title: 'Fox' });

    expect((await wardrobe()).map((item) => item.hash).sort()).toEqual(
      [capes[0]!.still.hash, capes[2]!.still.hash, ears.still.hash].sort(),
    );
    expect(await stored(capes[1]!.still.hash), 'the picture no one keeps any more').toBe(false);
    expect(await stored(capes[0]!.still.hash), 'the worn one stays').toBe(true);
    const drop = await db.selectFrom('wardrobe_drops').selectAll().where('user_uuid', '=', UUID).executeTakeFirst();
    expect(drop).toMatchObject({ kind: 'cape', title: null, added_at: 2 });
  });

  it('a moderator’s removal takes the picture out of every wardrobe and off every player inside its transaction', async () => {
    const other = 'f'.repeat(32);
    await upsertUser(db, other, 'Other');
    const cape = { still: texture('removed still'), strip: texture('removed strip', 2) };
    await putOn('cape', cape, UPLOAD);
    await setPlayerTextures(context, other, 'cape', { textures: cape, origin: UPLOAD });
    await setPlayerTextures(context, other, 'cape', {
      textures: { still: texture('other cape'), strip: null },
      origin: UPLOAD,
    });

    let wardrobesDuringRemoval = -1;
    const takenOff = await db.transaction().execute(async (trx) => {
      const taken = await takeOffEveryWearer(trx, [cape.strip.hash]);
      const left = await trx.selectFrom('wardrobe_items').select('id').where('hash', '=', cape.strip.hash).execute();
      wardrobesDuringRemoval = left.length;
      return taken;
    });
    expect(wardrobesDuringRemoval, 'gone inside the removal’s transaction').toBe(0);
    expect(takenOff.players, 'the one player still wearing it').toEqual([UUID]);
    expect(await columns()).toEqual({ cape_hash: null, cape_strip_hash: null, ears_hash: null });
    const left = await db.selectFrom('wardrobe_items').select(['user_uuid', 'hash']).execute();
    expect(left).toEqual([{ user_uuid: other, hash: texture('other cape').hash }]);
  });
});
