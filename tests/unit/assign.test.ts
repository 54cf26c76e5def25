// Texture assignment (server/textures/library/assign.ts): a player's slot points at stored textures in one step, what
// it replaced is released, every change is published, and a player who is gone keeps nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../server/db/database.ts';
import { upsertUser } from '../../server/db/users.ts';
import { LocalBlobStore } from '../../server/storage/local-store.ts';
import {
  assignPlayerTextures,
  clearPlayerTextures,
  type AssignmentContext,
  type CapeGifWork,
} from '../../server/textures/library/assign.ts';
import { derivedKey, TextureLibrary } from '../../server/textures/library/texture-library.ts';
import { sha256, type EncodedTexture } from '../../server/textures/pipeline/process.ts';

const UUID = '0123456789abcdef0123456789abcdef';

let root: string;
let db: Db;
let context: AssignmentContext & { imageJobs: CapeGifWork };
let published: string[];
/** The GIFs made, by whose work, and whether the change was published yet when each was made. */
let gifJobs: Array<{ owner: string; publishedBefore: number }>;
/** When set, the GIF work is refused with this error (as the queue refuses work beyond a player's budget). */
let gifRefusal: Error | null;

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
    run: async (_name, picture, owner) => {
      if (gifRefusal) throw gifRefusal;
      gifJobs.push({ owner, publishedBefore: published.length });
      return Buffer.concat([Buffer.from('GIF of '), picture]);
    },
  };
  context = { db, library: new TextureLibrary(db, new LocalBlobStore(path.join(root, 'textures'))), bus, imageJobs };
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

async function stored(hash: string): Promise<boolean> {
  return (await context.library.readRegistered(hash)) !== null;
}

describe('assignPlayerTextures', () => {
  it('makes a cape’s GIF as the player’s own work and stores it beside the cape before the change is published', async () => {
    const animated = { still: texture('still gif'), strip: texture('strip gif', 2) };
    await assignPlayerTextures(context, UUID, 'cape', animated);
    expect(gifJobs).toEqual([{ owner: UUID, publishedBefore: 0 }]);
    expect(
      await context.library.read(derivedKey(animated.still.hash, 'gif')),
      'the still: the animation is off',
    ).toEqual(Buffer.from('GIF of still gif'));

    await db.insertInto('premium').values({ user_uuid: UUID, animated: 1 }).execute();
    const playing = { still: texture('still two'), strip: texture('strip two', 2) };
    await assignPlayerTextures(context, UUID, 'cape', playing);
    expect(gifJobs).toEqual([
      { owner: UUID, publishedBefore: 0 },
      { owner: UUID, publishedBefore: 1 },
    ]);
    expect(await context.library.read(derivedKey(playing.strip.hash, 'gif')), 'the strip: the animation is on').toEqual(
      Buffer.from('GIF of strip two'),
    );

    const still = { still: texture('plain still'), strip: null };
    await assignPlayerTextures(context, UUID, 'cape', still);
    expect(await context.library.read(derivedKey(still.still.hash, 'gif')), 'a still cape’s one-frame GIF').toEqual(
      Buffer.from('GIF of plain still'),
    );
    await assignPlayerTextures(context, UUID, 'ears', { still: texture('ears'), strip: null });
    expect(gifJobs, 'ears have no GIF').toHaveLength(3);
  });

  it('changes nothing when the GIF work is refused (the player’s budget is spent)', async () => {
    const first = { still: texture('worn'), strip: null };
    await assignPlayerTextures(context, UUID, 'cape', first);
    gifRefusal = new Error('You have used your share of picture processing for now. Try again in a minute.');
    const second = { still: texture('refused'), strip: texture('refused strip', 2) };
    await expect(assignPlayerTextures(context, UUID, 'cape', second)).rejects.toThrow(gifRefusal.message);
    expect(await columns()).toEqual({ cape_hash: first.still.hash, cape_strip_hash: null, ears_hash: null });
    expect(published).toEqual([UUID]);
    expect(await stored(second.still.hash)).toBe(false);
    expect(await context.library.read(second.strip.hash), 'nothing of it was written').toBeNull();
  });

  it('points the slot at the still and strip, releases what they replace and publishes each change', async () => {
    const first = { still: texture('still one'), strip: texture('strip one', 2) };
    await assignPlayerTextures(context, UUID, 'cape', first);
    expect(await columns()).toEqual({
      cape_hash: first.still.hash,
      cape_strip_hash: first.strip.hash,
      ears_hash: null,
    });

    const second = { still: first.still, strip: null };
    await assignPlayerTextures(context, UUID, 'cape', second);
    expect(await columns()).toEqual({ cape_hash: first.still.hash, cape_strip_hash: null, ears_hash: null });
    expect(await stored(first.still.hash)).toBe(true);
    expect(await stored(first.strip.hash), 'the strip no one uses').toBe(false);
    expect(published).toEqual([UUID, UUID]);
  });

  it('leaves nothing stored for a player who is gone', async () => {
    await db.deleteFrom('users').where('uuid', '=', UUID).execute();
    const textures = { still: texture('orphan still'), strip: texture('orphan strip', 2) };
    await assignPlayerTextures(context, UUID, 'cape', textures);
    expect(await stored(textures.still.hash)).toBe(false);
    expect(await stored(textures.strip.hash)).toBe(false);
  });
});

describe('clearPlayerTextures', () => {
  it('empties the named slots, or all of them, releasing their textures', async () => {
    const cape = { still: texture('cape'), strip: texture('cape strip', 2) };
    const ears = { still: texture('ears'), strip: null };
    await assignPlayerTextures(context, UUID, 'cape', cape);
    await assignPlayerTextures(context, UUID, 'ears', ears);

    await clearPlayerTextures(context, UUID, ['ears']);
    expect(await columns()).toEqual({ cape_hash: cape.still.hash, cape_strip_hash: cape.strip.hash, ears_hash: null });
    expect(await stored(ears.still.hash)).toBe(false);

    await clearPlayerTextures(context, UUID);
    expect(await columns()).toEqual({ cape_hash: null, cape_strip_hash: null, ears_hash: null });
    expect(await stored(cape.still.hash)).toBe(false);
    expect(await stored(cape.strip.hash)).toBe(false);
    expect(published).toEqual([UUID, UUID, UUID, UUID]);
  });
});
