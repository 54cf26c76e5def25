// API tests for the player lookup (GET /api/user/search/{id}) and player reports (POST /api/user/report), on both
// databases.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';

describe.each(backends)('player lookup and reports on $name', (backend) => {
  const suite = serverForSuite(backend);
  let target: { jar: CookieJar; uuid: string; username: string };
  let reporter: { jar: CookieJar; uuid: string; username: string };
  let capeUrl: string;

  beforeAll(async () => {
    target = await loginNewUser(suite.server, `Look_${backend.name}`.slice(0, 16));
    reporter = await loginNewUser(suite.server);
    const upload = await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(21)));
    capeUrl = ((await upload.json()) as { cape: string }).cape;
  });

  const search = (id: string) => fetch(`${suite.server.url}/api/user/search/${encodeURIComponent(id)}`);

  it('finds a player by name in any case and by uuid with or without dashes, with their mod API profile', async () => {
    const answers = await Promise.all(
      [target.username.toUpperCase(), target.username.toLowerCase(), target.uuid, dashedUuid(target.uuid)].map(search),
    );
    const bodies = await Promise.all(answers.map((response) => response.json()));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const profile = await (await fetch(`${suite.server.url}/profile/${target.uuid}`)).json();
    for (const body of bodies) {
      expect(body).toEqual({
        uuid: target.uuid,
        username: target.username,
        group: { name: 'Player', emoji: '' },
        premium: null,
        profile,
      });
    }
    expect(bodies[0].profile.cape_url).toBe(capeUrl);
  });

  it('answers 404 for a player who is not registered and 422 for an id that is neither a name nor a uuid', async () => {
    const unknown = await search('NobodyHere_42');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "That user doesn't exist or isn't registered." });
    const malformed = await search('not a name!');
    expect(malformed.status).toBe(422);
    expect(JSON.stringify(await malformed.json())).toContain('Enter a username');
  });

  it('shows a banned player without their textures, as the mod API does', async () => {
    const banned = await loginNewUser(suite.server);
    await banned.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(22)));
    await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', banned.uuid).execute();
    const body = await (await search(banned.uuid)).json();
    expect(body.profile.cape_url).toBeNull();
  });

  it('files one open report per reporter and player, with a copy of the textures that outlives a change of cape', async () => {
    const response = await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const again = await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' });
    expect(again.status).toBe(422);
    expect((await again.json()).error).toMatch(/already reported this player/);

    const report = await suite.server.db
      .selectFrom('user_reports')
      .selectAll()
      .where('user_uuid', '=', target.uuid)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({
      reporter_uuid: reporter.uuid,
      cape_hash: capeUrl.split('/').pop(),
      resolved_at: null,
    });

    // The player changes their cape: the reported one stays readable for the moderators.
    await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(23)));
    expect((await fetch(`${suite.server.url}${new URL(capeUrl).pathname}`)).status).toBe(200);
    expect((await target.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
    expect((await fetch(`${suite.server.url}${new URL(capeUrl).pathname}`)).status).toBe(200);
  });

  it('refuses a report without the ticked terms, of oneself, of an unknown player, from a visitor and without the XSRF header', async () => {
    const unticked = await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: false, reason: 'nsfw' });
    expect(unticked.status).toBe(422);
    expect(JSON.stringify(await unticked.json())).toContain('You must accept the terms to report a user.');

    const self = await reporter.jar.post('/api/user/report', { uuid: reporter.uuid, terms: true, reason: 'nsfw' });
    expect(self.status).toBe(422);
    expect((await self.json()).error).toBe('You cannot report yourself.');

    const unknown = await reporter.jar.post('/api/user/report', { uuid: '0'.repeat(32), terms: true, reason: 'nsfw' });
    expect(unknown.status).toBe(404);

    const visitor = await newBrowser(suite.server);
    expect((await visitor.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' })).status).toBe(
      401,
    );

    const forged = await reporter.jar.post(
      '/api/user/report',
      { uuid: target.uuid, terms: true, reason: 'nsfw' },
      { 'x-xsrf-token': 'forged' },
    );
    expect(forged.status).toBe(419);
  });
});
