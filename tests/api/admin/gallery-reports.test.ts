// API tests for the gallery report queue (GET/POST /api/admin/reports/gallery), on both databases: the
// paginated queue, and each answer's effect on the item, its author and the audit log.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

describe.each(backends)('admin gallery report queue on $name', (backend) => {
  const suite = serverForSuite(backend, { GALLERY_UPLOADS_PER_10_MINUTES: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let admin: { jar: CookieJar; uuid: string; username: string };
  let reporter: { jar: CookieJar; uuid: string; username: string };
  let colour = 60;

  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    reporter = await loginNewUser(suite.server);
  });

  /**
   * A new author's gallery texture, reported by the reporter; returns the author, the item's hash and the report's id.
   */
  async function reportedItem() {
    const author = await loginNewUser(suite.server);
    const form = new FormData();
    form.append('title', `Reported ${colour}`);
    form.append('tags', JSON.stringify(['cute']));
    form.append(
      'file',
      new Blob([new Uint8Array(await solidPng(64, 32, frameColour(colour++)))], { type: 'image/png' }),
      'texture.png',
    );
    const created = await author.jar.sendForm('POST', '/api/gallery/new', form);
    expect(created.status).toBe(201);
    const { hash } = (await created.json()) as { hash: string };
    expect((await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
    const report = await suite.server.db
      .selectFrom('gallery_reports')
      .select('id')
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    return { author, hash, id: report.id };
  }
  const itemStatus = async (hash: string) => (await admin.jar.get(`/api/gallery/${hash}`)).status;
  const answer = (body: Record<string, unknown>) => admin.jar.post('/api/admin/reports/gallery', body);

  it('is for admins only', async () => {
    const visitor = await newBrowser(suite.server);
    expect((await visitor.get('/api/admin/reports/gallery')).status).toBe(401);
    expect((await reporter.jar.get('/api/admin/reports/gallery')).status).toBe(403);
    expect((await reporter.jar.post('/api/admin/reports/gallery', { id: 1, action: 'IGNORE' })).status).toBe(403);
  });

  it('lists reports with the reporter, the author and the texture, a page at a time', async () => {
    const { author, hash, id } = await reportedItem();
    const page = await (await admin.jar.get('/api/admin/reports/gallery?page=1')).json();
    expect(page.currentPage).toBe(1);
    expect(page.data).toContainEqual(
      expect.objectContaining({ id, hash, username: author.username, reported_by_username: reporter.username }),
    );
    expect(page.links[0]).toMatchObject({ label: 'Previous', url: null });
  });

  it('IGNORE drops the report and keeps the texture', async () => {
    const { hash, id } = await reportedItem();
    expect((await answer({ id, action: 'IGNORE' })).status).toBe(200);
    expect(await itemStatus(hash)).toBe(200);
    expect((await answer({ id, action: 'IGNORE' })).status).toBe(404);
  });

  it('REMOVE needs a reason, then deletes the texture and audits it', async () => {
    const { author, hash, id } = await reportedItem();
    const noReason = await answer({ id, action: 'REMOVE' });
    expect(noReason.status).toBe(422);
    expect((await noReason.json()).errors.reason).toEqual(['Choose a reason.']);
    expect((await answer({ id, action: 'REMOVE', reason: 'nsfw' })).status).toBe(200);
    expect(await itemStatus(hash)).toBe(404);
    const audit = await suite.server.db
      .selectFrom('admin_audit')
      .select(['action', 'target_hash', 'reason'])
      .where('target_uuid', '=', author.uuid)
      .execute();
    expect(audit).toEqual([{ action: 'GALLERY_REPORT_REMOVE', target_hash: hash, reason: 'NSFW or NSFL image' }]);
  });

  it('BAN bans the author and removes the texture', async () => {
    const { author, hash, id } = await reportedItem();
    expect((await answer({ id, action: 'BAN', reason: 'drugs' })).status).toBe(200);
    expect((await author.jar.get('/api/user')).status).toBe(401);
    expect(await itemStatus(hash)).toBe(404);
    const bans = (await (await admin.jar.get('/api/admin/bans/user')).json()) as {
      data: Array<{ uuid: string; reported_by_username: string | null }>;
    };
    expect(bans.data.find((row) => row.uuid === author.uuid)?.reported_by_username).toBe(reporter.username);
  });

  for (const action of ['REMOVE', 'BAN'] as const) {
    it(`${action} takes the picture off every player wearing it, in the mod API at once, and the audit row says how many lost it`, async () => {
      const picture = await solidPng(64, 32, frameColour(colour++));
      const author = await loginNewUser(suite.server);
      const form = new FormData();
      form.append('title', `Worn ${colour}`);
      form.append('tags', JSON.stringify(['cute']));
      form.append('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'texture.png');
      const { hash } = (await (await author.jar.sendForm('POST', '/api/gallery/new', form)).json()) as { hash: string };
      // The uploader wears the same picture as his cape; another player wears the gallery item; a third wears a cape of
      // his own.
      expect((await author.jar.upload('/api/upload-cape', picture)).status).toBe(200);
      const fan = await loginNewUser(suite.server);
      expect((await fan.jar.post('/api/gallery/creations/use', { hash })).status).toBe(200);
      const bystander = await loginNewUser(suite.server);
      expect(
        (await bystander.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)))).status,
      ).toBe(200);
      const capeUrl = async (name: string) => (await modProfile(suite.server.url, name)).cape_url;
      for (const player of [author, fan])
        expect(await capeUrl(player.username)).toMatch(new RegExp(`/textures/${hash}$`));
      expect(await capeUrl(bystander.username)).not.toBeNull();

      expect((await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
      const { id } = await suite.server.db
        .selectFrom('gallery_reports')
        .select('id')
        .where('hash', '=', hash)
        .executeTakeFirstOrThrow();
      expect((await answer({ id, action, reason: 'nsfw' })).status).toBe(200);

      for (const player of [author, fan]) {
        expect(await capeUrl(player.username)).toBeNull();
        expect((await fetch(`${suite.server.url}/profile/${player.username}/cape`)).status).toBe(404);
      }
      expect((await fetch(`${suite.server.url}/textures/${hash}`)).status).toBe(404);
      expect(await capeUrl(bystander.username)).not.toBeNull();
      const audit = await suite.server.db
        .selectFrom('admin_audit')
        .select(['action', 'detail'])
        .where('target_hash', '=', hash)
        .execute();
      expect(audit).toEqual([{ action: `GALLERY_REPORT_${action}`, detail: `report ${id}; 2 players lost it` }]);
    });
  }

  it('WHITELIST marks the texture safe: its reports go and it can no longer be reported', async () => {
    const { hash, id } = await reportedItem();
    expect((await answer({ id, action: 'WHITELIST' })).status).toBe(200);
    const item = await (await admin.jar.get(`/api/gallery/${hash}`)).json();
    expect(item.whitelisted).toBe(true);
    const other = await loginNewUser(suite.server);
    const report = await other.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' });
    expect(report.status).toBe(422);
    expect((await report.json()).error).toBe('This texture was marked safe by staff and cannot be reported.');
  });
});
