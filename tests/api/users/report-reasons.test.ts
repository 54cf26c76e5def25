// API tests for the reason and note of a report (POST /api/gallery/report, POST /api/user/report), on both databases:
// a reason from the ban reasons list and an optional note of at most 200 characters, refused with a clear message
// (nothing filed) when either is wrong, and both shown to moderators in the two queues.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';

type Player = { jar: CookieJar; uuid: string; username: string };

/** The first message of a field of a 422 answer. */
async function fieldMessage(response: Response, field: string): Promise<string | undefined> {
  const body = (await response.json()) as { errors?: Record<string, string[]> };
  return body.errors?.[field]?.[0];
}

describe.each(backends)('report reasons and notes on $name', (backend) => {
  const suite = serverForSuite(backend, { GALLERY_UPLOADS_PER_10_MINUTES: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let admin: Player;
  let reporter: Player;
  let colour = 140;

  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    reporter = await loginNewUser(suite.server);
  });

  /** A new author's gallery texture; returns its hash. */
  async function galleryItem(): Promise<string> {
    const author = await loginNewUser(suite.server);
    const form = new FormData();
    form.append('title', `Reasoned ${colour}`);
    form.append('tags', JSON.stringify(['cute']));
    form.append(
      'file',
      new Blob([new Uint8Array(await solidPng(64, 32, frameColour(colour++)))], { type: 'image/png' }),
      'texture.png',
    );
    const created = await author.jar.sendForm('POST', '/api/gallery/new', form);
    expect(created.status).toBe(201);
    return ((await created.json()) as { hash: string }).hash;
  }

  const reportCount = async (table: 'gallery_reports' | 'user_reports') =>
    Number(
      (
        await suite.server.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  const kinds = [
    {
      name: 'gallery',
      table: 'gallery_reports' as const,
      target: async () => ({ hash: await galleryItem(), tac: true }),
      send: (body: Record<string, unknown>) => reporter.jar.post('/api/gallery/report', body),
    },
    {
      name: 'player',
      table: 'user_reports' as const,
      target: async () => ({ uuid: (await loginNewUser(suite.server)).uuid, terms: true }),
      send: (body: Record<string, unknown>) => reporter.jar.post('/api/user/report', body),
    },
  ];

  for (const kind of kinds) {
    it(`a ${kind.name} report needs a reason from the list and takes a note of at most 200 characters`, async () => {
      const target = await kind.target();
      const before = await reportCount(kind.table);

      const missing = await kind.send(target);
      expect(missing.status).toBe(422);
      expect(await fieldMessage(missing, 'reason')).toBe('Choose a reason.');

      const unknown = await kind.send({ ...target, reason: 'boring' });
      expect(unknown.status).toBe(422);
      expect(await fieldMessage(unknown, 'reason')).toBe('Choose a reason from the list.');

      const long = await kind.send({ ...target, reason: 'nsfw', note: 'x'.repeat(201) });
      expect(long.status).toBe(422);
      expect(await fieldMessage(long, 'note')).toBe('Keep the note to 200 characters or fewer.');

      expect(await reportCount(kind.table)).toBe(before);

      const filed = await kind.send({ ...target, reason: 'nsfw', note: ` ${'y'.repeat(200)} ` });
      expect(filed.status).toBe(200);
      expect(await reportCount(kind.table)).toBe(before + 1);
    });
  }

  it('the gallery queue shows each report with its reason text, its reason key (what Remove and Ban start from) and note (none when left empty)', async () => {
    const withNote = await galleryItem();
    const withoutNote = await galleryItem();
    expect(
      (
        await reporter.jar.post('/api/gallery/report', {
          hash: withNote,
          tac: true,
          reason: 'hate',
          note: 'Slur in the lettering',
        })
      ).status,
    ).toBe(200);
    expect(
      (await reporter.jar.post('/api/gallery/report', { hash: withoutNote, tac: true, reason: 'drugs', note: '   ' }))
        .status,
    ).toBe(200);
    const page = (await (await admin.jar.get('/api/admin/reports/gallery?page=1')).json()) as {
      data: Array<Record<string, unknown>>;
    };
    expect(page.data.find((row) => row.hash === withNote)).toMatchObject({
      reason: 'Sexism, racism or other hateful content',
      reasonKey: 'hate',
      note: 'Slur in the lettering',
    });
    expect(page.data.find((row) => row.hash === withoutNote)).toMatchObject({
      reason: 'Promotes drugs',
      reasonKey: 'drugs',
      note: null,
    });
  });

  it('the player queue shows each report with its reason text, its reason key and note; a reason no longer listed has no key', async () => {
    const target = await loginNewUser(suite.server);
    await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)));
    expect(
      (
        await reporter.jar.post('/api/user/report', {
          uuid: target.uuid,
          terms: true,
          reason: 'impersonation',
          note: 'Pretends to be staff',
        })
      ).status,
    ).toBe(200);
    const rows = (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<Record<string, unknown>>;
    expect(rows.find((row) => row.uuid === target.uuid)).toMatchObject({
      reason: 'Impersonates another player or staff',
      reasonKey: 'impersonation',
      note: 'Pretends to be staff',
    });
    await suite.server.db
      .updateTable('user_reports')
      .set({ reason_key: 'retired' })
      .where('user_uuid', '=', target.uuid)
      .execute();
    const later = (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<Record<string, unknown>>;
    expect(later.find((row) => row.uuid === target.uuid)).toMatchObject({ reason: 'retired', reasonKey: null });
  });
});
