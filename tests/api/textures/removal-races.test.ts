// Writes that race a removal, on both databases (PostgreSQL runs them at once for real), each fired together many
// times with the start of one walked across the other's: "Wear this" against a gallery report's REMOVE of the same
// picture ends with the picture removed everywhere, whichever wins; a wardrobe item worn and removed at once ends as
// one order of the two would leave it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { galleryForm, TEXTURE_URL } from '../../helpers/gallery.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

/** How many times each race runs, and the offsets (ms) the later request starts at: negative starts the other first. */
const OFFSETS = [-40, -20, -15, -12, -10, -8, -6, -4, -2, 0, 3, 6, 10, 20, 45];

/** Runs `first` and `second` together, the later one `offset` ms after the other (second later when positive). */
async function together<A, B>(offset: number, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const delayed = async <T>(ms: number, run: () => Promise<T>) => {
    if (ms > 0) await sleep(ms);
    return run();
  };
  return Promise.all([delayed(-offset, first), delayed(offset, second)]);
}

describe.each(backends)('removal races on $name', (backend) => {
  const suite = serverForSuite(backend, {
    LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
  });
  let colour = 1200;
  const hashOf = (url: string) => TEXTURE_URL.exec(url)![1]!;
  const status = async (path: string) => (await fetch(`${suite.server.url}${path}`)).status;
  const wardrobeHashes = async (jar: CookieJar) =>
    ((await (await jar.get('/api/wardrobe')).json()) as { items: Array<{ texture: string }> }).items.map((item) =>
      hashOf(item.texture),
    );
  /** The picture's texture row, as the database holds it. */
  const textureRow = (hash: string) =>
    suite.server.db.selectFrom('textures').select('withheld_at').where('hash', '=', hash).executeTakeFirst();

  it(
    '"Wear this" racing a gallery report’s REMOVE never leaves the picture worn, kept or public',
    { timeout: 180_000 },
    async () => {
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const author = await loginNewUser(suite.server);
      const reporter = await loginNewUser(suite.server);
      // One author's uploads one after another (a player's image jobs are limited), the wearers at once.
      const trials: Array<{ hash: string; wearer: Awaited<ReturnType<typeof loginNewUser>> }> = [];
      const wearers = await Promise.all(OFFSETS.map(() => loginNewUser(suite.server)));
      for (const wearer of wearers) {
        const file = await solidPng(64, 32, frameColour(colour++));
        const created = await author.jar.sendForm(
          'POST',
          '/api/gallery/new',
          galleryForm({ title: 'Race', tags: ['cute'], file }),
        );
        expect(created.status).toBe(201);
        const { hash } = (await created.json()) as { hash: string };
        expect((await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
        trials.push({ hash, wearer });
      }
      const reports = (await (await admin.jar.get('/api/admin/reports/gallery')).json()) as {
        data: Array<{ id: number; hash: string }>;
      };
      const wearStatuses: number[] = [];
      for (const [index, offset] of OFFSETS.entries()) {
        const trial = `offset ${offset} ms`;
        const { hash, wearer } = trials[index]!;
        const report = reports.data.find((row) => row.hash === hash)!;
        const [wear, removal] = await together(
          offset,
          () => wearer.jar.post('/api/gallery/wear', { hash }),
          () => admin.jar.post('/api/admin/reports/gallery', { id: report.id, action: 'REMOVE', reason: 'nsfw' }),
        );
        expect(removal.status, trial).toBe(200);
        // The wear went first (and the removal took the cape off again), or it found the picture gone or blocklisted.
        expect([200, 404, 422], trial).toContain(wear.status);
        wearStatuses.push(wear.status);
        expect(await status(`/profile/${wearer.uuid}`), `${trial}: the wearer shows nothing`).toBe(404);
        expect(await status(`/textures/${hash}`), `${trial}: no URL serves the picture`).toBe(404);
        expect(await wardrobeHashes(wearer.jar), `${trial}: not in the wardrobe`).not.toContain(hash);
        const row = await textureRow(hash);
        expect(row === undefined || row.withheld_at !== null, `${trial}: the texture row is not public`).toBe(true);
        const listed = await suite.server.db
          .selectFrom('texture_blocklist')
          .select('hash')
          .where('hash', '=', hash)
          .executeTakeFirst();
        expect(listed, `${trial}: blocklisted`).toBeDefined();
      }
      console.log(`${backend.name}: "Wear this" against REMOVE answered ${wearStatuses.join(' ')} across the offsets`);
    },
  );

  it(
    'a wardrobe item worn and removed at once ends as one order of the two leaves it',
    { timeout: 180_000 },
    async () => {
      /** A player wearing an uploaded cape with another in their wardrobe: the player, both hashes, the item's id. */
      const preparePlayer = async () => {
        const player = await loginNewUser(suite.server);
        const upload = async () => {
          const response = await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)));
          expect(response.status).toBe(200);
          return hashOf(((await response.json()) as { cape: string }).cape);
        };
        const first = await upload();
        const worn = await upload();
        const items = (await (await player.jar.get('/api/wardrobe')).json()) as {
          items: Array<{ id: string; texture: string }>;
        };
        return { player, first, worn, id: items.items.find((item) => hashOf(item.texture) === first)!.id };
      };
      // Prepared together: each player's second change within a second waits for the next one, and they wait at once.
      const players = await Promise.all(OFFSETS.map(preparePlayer));
      const outcomes: string[] = [];
      for (const [index, offset] of OFFSETS.entries()) {
        const trial = `offset ${offset} ms`;
        const { player, first, worn, id } = players[index]!;
        const [wear, remove] = await together(
          offset,
          () => player.jar.post('/api/wardrobe/wear', { id }),
          () => player.jar.post('/api/wardrobe/remove', { id }),
        );
        expect(remove.status, trial).toBe(200);
        const cape = await suite.server.db
          .selectFrom('users')
          .select('cape_hash')
          .where('uuid', '=', player.uuid)
          .executeTakeFirstOrThrow();
        if (wear.status === 200) {
          // Wear, then remove: the removal took the item off, and the player wears nothing.
          expect(cape.cape_hash, trial).toBeNull();
          outcomes.push('wear first');
        } else {
          // Remove, then wear: the item was gone, and the player still wears the other cape.
          expect(wear.status, trial).toBe(404);
          expect(((await wear.json()) as { error: string }).error).toBe('That item is not in your wardrobe.');
          expect(cape.cape_hash, trial).toBe(worn);
          outcomes.push('remove first');
        }
        expect(await wardrobeHashes(player.jar), `${trial}: gone from the wardrobe`).not.toContain(first);
        expect(await status(`/textures/${first}`), `${trial}: nothing keeps the picture`).toBe(404);
        expect(await textureRow(first), trial).toBeUndefined();
      }
      console.log(`${backend.name}: wear against remove ended as ${outcomes.join(', ')} across the offsets`);
    },
  );
});
