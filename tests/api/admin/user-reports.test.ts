// API tests for the player report queue (GET/POST /api/admin/reports/user), on both databases: the queue
// with the reported textures as they were, and each answer's effect on the mod API, the queue and the audit log.
import { describe, expect, it, beforeAll } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

describe.each(backends)('admin player report queue on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let admin: { jar: CookieJar; uuid: string; username: string };
  let reporter: { jar: CookieJar; uuid: string; username: string };

  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    reporter = await loginNewUser(suite.server);
  });

  /** A player wearing a new cape and ears, reported by the reporter; returns the player and the report's id. */
  async function reportedPlayer(colour: number) {
    const target = await loginNewUser(suite.server);
    expect((await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour)))).status).toBe(200);
    expect((await target.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(colour + 1)))).status).toBe(
      200,
    );
    expect(
      (await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' })).status,
    ).toBe(200);
    const queue = (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{
      id: number;
      uuid: string;
      cape: string | null;
      ears: string | null;
    }>;
    const report = queue.find((row) => row.uuid === target.uuid)!;
    return { target, report };
  }
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);
  const queued = async (uuid: string) =>
    ((await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{ uuid: string }>).some(
      (row) => row.uuid === uuid,
    );

  it('is for admins only', async () => {
    const visitor = await newBrowser(suite.server);
    expect((await visitor.get('/api/admin/reports/user')).status).toBe(401);
    expect((await reporter.jar.get('/api/admin/reports/user')).status).toBe(403);
    expect((await reporter.jar.post('/api/admin/reports/user', { id: 1, action: 'IGNORE' })).status).toBe(403);
  });

  it('shows the cape and ears as they were when reported, even after the player changes them', async () => {
    const { target, report } = await reportedPlayer(51);
    expect(report).toMatchObject({ username: target.username, reported_by_username: reporter.username });
    expect(report.cape).toMatch(/^data:image\/png;base64,/);
    expect(report.ears).toMatch(/^data:image\/png;base64,/);
    await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(99)));
    const again = (
      (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{ uuid: string; cape: string }>
    ).find((row) => row.uuid === target.uuid)!;
    expect(again.cape).toBe(report.cape);
  });

  it('IGNORE closes the report and changes nothing else', async () => {
    const { target, report } = await reportedPlayer(53);
    const answer = await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'IGNORE' });
    expect(answer.status).toBe(200);
    expect(await queued(target.uuid)).toBe(false);
    expect((await profile(target.uuid)).cape_url).not.toBeNull();
    const twice = await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'IGNORE' });
    expect(twice.status).toBe(404);
  });

  it('REMOVE needs a reason, then takes off the reported cape and ears and audits the answer', async () => {
    const { target, report } = await reportedPlayer(55);
    const noReason = await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'REMOVE' });
    expect(noReason.status).toBe(422);
    expect((await noReason.json()).errors.reason).toEqual(['Choose a reason.']);
    expect(
      (await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'REMOVE', reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await profile(target.uuid)).toMatchObject({ cape_url: null, ear_url: null });
    expect(await queued(target.uuid)).toBe(false);
    const audit = await suite.server.db
      .selectFrom('admin_audit')
      .select(['action', 'reason'])
      .where('target_uuid', '=', target.uuid)
      .execute();
    expect(audit).toEqual([{ action: 'USER_REPORT_REMOVE', reason: 'NSFW or NSFL image' }]);
  });

  it('REMOVE takes the reported cape and ears off every player wearing the same picture, and the audit row says how many lost them', async () => {
    const { target, report } = await reportedPlayer(61);
    const capeTwin = await loginNewUser(suite.server);
    expect((await capeTwin.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(61)))).status).toBe(200);
    const earsTwin = await loginNewUser(suite.server);
    expect((await earsTwin.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(62)))).status).toBe(200);
    expect((await earsTwin.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(63)))).status).toBe(200);
    expect((await profile(capeTwin.uuid)).cape_url).not.toBeNull();
    expect((await profile(earsTwin.uuid)).ear_url).not.toBeNull();

    expect(
      (await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'REMOVE', reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await profile(target.uuid)).toMatchObject({ cape_url: null, ear_url: null });
    expect((await profile(capeTwin.uuid)).cape_url).toBeNull();
    expect(await profile(earsTwin.uuid)).toMatchObject({ ear_url: null, cape_url: expect.any(String) });
    const audit = await suite.server.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('target_uuid', '=', target.uuid)
      .execute();
    expect(audit).toEqual([{ action: 'USER_REPORT_REMOVE', detail: `report ${report.id}; 3 players lost it` }]);
  });

  it('BAN bans the player with the reporter named on the ban list; WHITELIST is refused for player reports', async () => {
    const { target, report } = await reportedPlayer(57);
    const whitelist = await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'WHITELIST' });
    expect(whitelist.status).toBe(422);
    expect(
      (await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'BAN', reason: 'hate' })).status,
    ).toBe(200);
    expect((await target.jar.get('/api/user')).status).toBe(401);
    expect((await profile(target.uuid)).cape_url).toBeNull();
    expect(await queued(target.uuid)).toBe(false);
    const bans = (await (await admin.jar.get('/api/admin/bans/user')).json()) as {
      data: Array<{ uuid: string; reported_by_username: string | null }>;
    };
    expect(bans.data.find((row) => row.uuid === target.uuid)?.reported_by_username).toBe(reporter.username);
  });
});
