// Several processes, one state: with two real server processes behind nginx on one PostgreSQL database, one Redis and
// one S3 bucket, a session started on one holds on the other, and every change to a player made on one process (a cape,
// its removal, a rename, any premium flag) is in every answer within a second (the cluster:
// tests/helpers/scale-out.ts).
import { sha256Hex } from '../../../support/textures.ts';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import type { AppProcess } from '../../../support/app-process.ts';
import { runsOnPostgres } from '../../../support/backends.ts';
import type { RunningNginx } from '../../../support/nginx.ts';
import { randomUsername } from '../../helpers/server.ts';
import {
  AUTH_API_KEY,
  CHANGE_VISIBLE_WITHIN_MS,
  newClientAddress,
  sameBrowserAt,
  logIn,
  newCape,
  capeUrl,
  timeUntilCape,
  modAnswers,
  timeUntilSeen,
  useScaleOutCluster,
} from '../../helpers/scale-out.ts';

let nginx: RunningNginx;
let processA: AppProcess;
let processB: AppProcess;
let db: Db;
useScaleOutCluster((cluster) => ({ nginx, processA, processB, db } = cluster));

// Real processes start, migrate and fork image workers: slow on a busy machine, so each test gets time.
describe.skipIf(!runsOnPostgres)('two processes behind nginx on PostgreSQL, Redis and S3', { timeout: 45_000 }, () => {
  it('a login through nginx is a session on both processes, and a logout on one ends it on the other', async () => {
    const { jar, uuid } = await logIn(nginx.url);
    for (const app of [processA, processB]) {
      const me = await sameBrowserAt(app.url, jar).get('/api/user');
      expect(me.status, app.name).toBe(200);
      expect(((await me.json()) as { uuid: string }).uuid).toBe(uuid);
    }
    expect((await sameBrowserAt(processA.url, jar).post('/api/account/logout')).status).toBe(200);
    expect((await sameBrowserAt(processB.url, jar).get('/api/user')).status).toBe(401);
  });

  it(`a cape uploaded on one process is in the other's mod API answer within ${CHANGE_VISIBLE_WITHIN_MS} ms, and so is its removal`, async () => {
    const { jar, uuid } = await logIn(processA.url);
    // Both processes have the player cached (no cape yet): only a change notice can tell them.
    expect(await capeUrl(processA.url, uuid)).toBeNull();
    expect(await capeUrl(processB.url, uuid)).toBeNull();

    const upload = await jar.upload('/api/upload-cape', await newCape());
    const uploadedAt = Date.now();
    expect(upload.status, await upload.clone().text()).toBe(200);
    const cape = ((await upload.json()) as { cape: string }).cape;
    expect(cape).toMatch(new RegExp(`^${nginx.url}/textures/[0-9a-f]{64}$`));
    const seenOnB = await timeUntilCape(processB.url, uuid, cape, uploadedAt);
    expect(seenOnB).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);

    const removal = await sameBrowserAt(processB.url, jar).request('DELETE', '/api/upload-cape');
    const removedAt = Date.now();
    expect(removal.status, await removal.clone().text()).toBe(200);
    const removalSeenOnA = await timeUntilCape(processA.url, uuid, null, removedAt);
    expect(removalSeenOnA).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);
  });

  it('a texture removed on one process stays gone on every URL, though the other process had just served it from memory', async () => {
    const admin = await logIn(processB.url, newClientAddress(), { admin: true });
    const { jar, uuid } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const urls = [`/textures/${hash}`, `/textures/${hash}.png`, `/csl/textures/${hash}`];
    for (const path of urls) {
      expect((await fetch(`${processB.url}${path}`)).status, path).toBe(200);
      expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(200);
    }
    // A moderator removes the cape on process A (edit user: delete the cape).
    const removal = await sameBrowserAt(processA.url, admin.jar).post('/api/admin/user/cape/delete', { uuid });
    expect(removal.status, await removal.clone().text()).toBe(200);
    const removedAt = Date.now();
    // Asked again and again, through nginx and straight from the process that had it in memory: gone, and it stays
    // gone.
    while (Date.now() - removedAt < 2 * CHANGE_VISIBLE_WITHIN_MS) {
      for (const path of urls) {
        const seenAt = Date.now();
        const statuses = [(await fetch(`${processB.url}${path}`)).status, (await fetch(`${nginx.url}${path}`)).status];
        if (seenAt - removedAt >= CHANGE_VISIBLE_WITHIN_MS) expect(statuses, path).toEqual([404, 404]);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('a new cape of the same size in the same second never answers 304 to the old ETag through nginx', async () => {
    const { jar, uuid } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const first = await fetch(`${nginx.url}/profile/${uuid}`);
    const firstBody = await first.text();
    const etag = first.headers.get('etag')!;
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, CHANGE_VISIBLE_WITHIN_MS));
    const second = await fetch(`${nginx.url}/profile/${uuid}`, { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(200);
    const secondBody = await second.text();
    expect(secondBody.length, 'the same length: only the time tells the answers apart').toBe(firstBody.length);
    expect(secondBody).not.toBe(firstBody);
  });

  it(`every change of a player is seen through nginx on every layout within ${CHANGE_VISIBLE_WITHIN_MS} ms`, async () => {
    const admin = await logIn(processB.url, newClientAddress(), { admin: true });
    const { jar, uuid, username } = await logIn(processA.url);
    await db.insertInto('premium').values({ user_uuid: uuid, dinnerbone: 1 }).execute();
    const player = [jar, sameBrowserAt(processB.url, jar)] as const;
    const timings: Record<string, number> = {};
    /**
     * Asks nginx for every layout (so it holds them open), makes a change through a process, then times until nginx
     * shows it.
     */
    const change = async (
      label: string,
      make: () => Promise<Response>,
      seen: (answers: Awaited<ReturnType<typeof modAnswers>>) => boolean,
    ) => {
      for (let i = 0; i < 5; i++) await modAnswers(uuid, username);
      const response = await make();
      const changedAt = Date.now();
      expect(response.status, `${label}: ${await response.clone().text()}`).toBe(200);
      timings[label] = await timeUntilSeen(uuid, username, seen, changedAt);
      expect(seen(await modAnswers(uuid, username)), label).toBe(true);
    };

    const cape = await newCape();
    let capeHash = '';
    await change(
      'upload',
      async () => {
        const response = await player[0].upload('/api/upload-cape', cape);
        capeHash = sha256Hex(
          Buffer.from(await (await fetch(((await response.clone().json()) as { cape: string }).cape)).arrayBuffer()),
        );
        return response;
      },
      (answers) =>
        answers.profile.includes(capeHash) &&
        answers.cape === 200 &&
        answers.elytra === 200 &&
        answers.csl.includes(capeHash) &&
        answers.cslMinecraftCapes === `200 ${capeHash}`,
    );
    await change(
      'premium toggle',
      () => player[1].post('/api/premium/dinnerbone', { enabled: true }),
      (answers) => answers.profile.includes('"upsideDown":true'),
    );
    await change(
      'removal',
      () => player[0].request('DELETE', '/api/upload-cape'),
      (answers) =>
        answers.profile.includes('"cape_url":null') &&
        answers.cape === 404 &&
        answers.elytra === 404 &&
        !answers.csl.includes(capeHash) &&
        !answers.cslMinecraftCapes.includes(capeHash),
    );
    expect((await player[1].upload('/api/upload-cape', cape)).status).toBe(200);
    await change(
      'ban',
      () => admin.jar.post('/api/admin/user/ban', { uuid, confirm: true, reason: 'nsfw' }),
      (answers) =>
        !answers.profile.includes(capeHash) &&
        answers.cape === 404 &&
        answers.elytra === 404 &&
        !answers.csl.includes(capeHash) &&
        !answers.cslMinecraftCapes.includes(capeHash),
    );

    const other = await logIn(processB.url);
    expect((await other.jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const before = await modAnswers(other.uuid, other.username);
    expect(before.profile).toMatch(/^200 /);
    for (let i = 0; i < 5; i++) await modAnswers(other.uuid, other.username);
    const deletion = await sameBrowserAt(processA.url, other.jar).post('/api/account/delete', { confirm: true });
    const deletedAt = Date.now();
    expect(deletion.status).toBe(200);
    timings['account deletion'] = await timeUntilSeen(
      other.uuid,
      other.username,
      (answers) =>
        answers.profile.startsWith('404') &&
        answers.cape === 404 &&
        answers.elytra === 404 &&
        answers.csl.startsWith('404') &&
        answers.cslMinecraftCapes.startsWith('404'),
      deletedAt,
    );

    for (const [label, ms] of Object.entries(timings)) expect(ms, label).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);
  });

  it(`a rename is seen through nginx within ${CHANGE_VISIBLE_WITHIN_MS} ms on every layout by name, and the old name is gone`, async () => {
    const { jar, username } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const byName = (name: string) => [
      `/profile/${name}`,
      `/capes/${name}.png`,
      `/capes/${name}.gif`,
      `/elytras/${name}.png`,
      `/csl/${name}.json`,
      `/csl-minecraftcapes/${name}`,
    ];
    const statuses = async (name: string) =>
      Promise.all(byName(name).map(async (path) => (await fetch(`${nginx.url}${path}`)).status));
    expect(await statuses(username)).toEqual(byName(username).map(() => 200));
    const { uuid } = (await (await jar.get('/api/user')).json()) as { uuid: string };
    const newName = randomUsername();
    // The game auth server tells a process (B) the player joined under a new name.
    const rename = await fetch(`${processB.url}/api/internal/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AUTH_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uuid, username: newName }),
    });
    const renamedAt = Date.now();
    expect(rename.status, await rename.clone().text()).toBe(200);
    for (;;) {
      const [now, before] = await Promise.all([statuses(newName), statuses(username)]);
      if (now.every((status) => status === 200) && before.every((status) => status === 404)) break;
      expect(Date.now() - renamedAt, `new name ${now.join()} old name ${before.join()}`).toBeLessThan(
        CHANGE_VISIBLE_WITHIN_MS,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(JSON.parse(await (await fetch(`${nginx.url}/csl/${newName.toLowerCase()}.json`)).text())).toMatchObject({
      username: newName,
    });
  });
});
