// A player's texture changes on both databases: uploads, take-offs, wardrobe changes, "Wear this" and wearing a cape
// from a creator share one budget; a take-off with nothing worn writes nothing; and no profile's Last-Modified is ever
// later than the moment it was answered, however fast the changes come (with answer files, it still moves on with every
// change).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { tooManyUploadsMessage } from '../../../src/lib/texture-rules.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite, type TestServer } from '../../helpers/server.ts';

/** The budget of texture changes in this suite. */
const BUDGET = 5;

describe.each(backends)('texture changes on $name', (backend) => {
  const suite = serverForSuite(backend, {
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: String(BUDGET),
  });
  let colour = 900;

  /** Uploads a new cape as the player; returns the response. */
  const uploadCape = async (jar: CookieJar) =>
    jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)));
  const wardrobeIds = async (jar: CookieJar) =>
    ((await (await jar.get('/api/wardrobe')).json()) as { items: Array<{ id: string }> }).items.map((item) => item.id);
  const changeCount = async () =>
    Number(
      (
        await suite.server.db
          .selectFrom('mod_changes')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('uploads, take-offs and wardrobe changes share one budget per player', async () => {
    const player = await loginNewUser(suite.server);
    expect((await uploadCape(player.jar)).status).toBe(200);
    const [id] = await wardrobeIds(player.jar);
    const changes: Array<[string, () => Promise<Response>]> = [
      ['take the cape off', () => player.jar.request('DELETE', '/api/upload-cape')],
      ['wear it from the wardrobe', () => player.jar.post('/api/wardrobe/wear', { id })],
      ['take it off in the wardrobe', () => player.jar.post('/api/wardrobe/take-off', { id })],
      ['take the ears off', () => player.jar.request('DELETE', '/api/upload-ears')],
    ];
    for (const [what, change] of changes) expect((await change()).status, what).toBe(200);
    // Six changes into a budget of five: the ears upload and the wardrobe's wear are both refused now.
    const ears = await player.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(colour++)));
    expect(ears.status).toBe(429);
    expect(((await ears.json()) as { error: string }).error).toBe(tooManyUploadsMessage('ears'));
    const wear = await player.jar.post('/api/wardrobe/wear', { id });
    expect(wear.status).toBe(429);
    expect(((await wear.json()) as { error: string }).error).toBe(galleryMessages.tooManyWears);
    // Another player's budget is their own.
    const other = await loginNewUser(suite.server);
    expect((await uploadCape(other.jar)).status).toBe(200);
  });

  it('a take-off with nothing worn writes no change', async () => {
    const player = await loginNewUser(suite.server);
    const before = await changeCount();
    for (const slot of ['cape', 'ears'])
      expect((await player.jar.request('DELETE', `/api/upload-${slot}`)).status, slot).toBe(200);
    expect(await changeCount()).toBe(before);
    expect((await fetch(`${suite.server.url}/profile/${player.uuid}`)).status).toBe(404);
  });

  /** Four quick changes of one player (off, on, off, on): the Last-Modified of each profile answered, and when. */
  async function lastModifiedOfQuickChanges(server: TestServer) {
    const player = await loginNewUser(server);
    const upload = await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)));
    expect(upload.status).toBe(200);
    const [id] = await wardrobeIds(player.jar);
    const seen: Array<{ lastModified: number; answeredAt: number }> = [];
    for (const change of ['take-off', 'wear', 'take-off', 'wear']) {
      expect((await player.jar.post(`/api/wardrobe/${change}`, { id })).status, change).toBe(200);
      const profile = await fetch(`${server.url}/profile/${player.uuid}`);
      expect(profile.status).toBe(change === 'wear' ? 200 : 404);
      if (change === 'wear')
        seen.push({ lastModified: Date.parse(profile.headers.get('last-modified')!), answeredAt: Date.now() });
    }
    return seen;
  }

  it("a profile's Last-Modified is never later than its answer, however fast the changes come", async () => {
    for (const { lastModified, answeredAt } of await lastModifiedOfQuickChanges(suite.server))
      expect(lastModified).toBeLessThanOrEqual(answeredAt);
  });

  describe('with answer files', () => {
    const answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-budget-'));
    const withFiles = serverForSuite(backend, {
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      TEXTURE_UPLOADS_PER_10_MINUTES: String(BUDGET),
      ANSWER_FILES_DIR: answersDir,
    });
    afterAll(() => fs.rmSync(answersDir, { recursive: true, force: true }));

    it("moves a profile's Last-Modified on with every change (nginx's ETag is the file's time and size), never past its answer", async () => {
      const seen = await lastModifiedOfQuickChanges(withFiles.server);
      for (const { lastModified, answeredAt } of seen) expect(lastModified).toBeLessThanOrEqual(answeredAt);
      expect(seen[1]!.lastModified, 'a later change has a later Last-Modified').toBeGreaterThan(seen[0]!.lastModified);
    });
  });
});
