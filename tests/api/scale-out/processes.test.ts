// Several processes, counted and stopped: with two real server processes behind nginx on one PostgreSQL database, one
// Redis and one S3 bucket, the login and upload limits count over both processes; a process killed with SIGKILL loses
// no acknowledged upload while the other keeps answering; a process told to stop (SIGTERM) finishes the request it is
// answering and exits 0 (the cluster: tests/helpers/scale-out.ts).
import fs from 'node:fs';
import { CookieJar } from '../../helpers/cookie-jar.ts';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import type { AppProcess } from '../../../support/app-process.ts';
import { runsOnPostgres } from '../../../support/backends.ts';
import type { RunningNginx } from '../../../support/nginx.ts';
import { unusedCode } from '../../helpers/server.ts';
import {
  LOGIN_ATTEMPTS_PER_MINUTE,
  TEXTURE_UPLOADS_PER_10_MINUTES,
  started,
  newClientAddress,
  sameBrowserAt,
  logIn,
  newCape,
  capeUrl,
  servesTexture,
  cookieHeader,
  startSlowUpload,
  startProcess,
  useScaleOutCluster,
} from '../../helpers/scale-out.ts';

let nginx: RunningNginx;
let processA: AppProcess;
let processB: AppProcess;
let db: Db;
let answersDir: string;
useScaleOutCluster((cluster) => ({ nginx, processA, processB, db, answersDir } = cluster));

// Real processes start, migrate and fork image workers: slow on a busy machine, so each test gets time.
describe.skipIf(!runsOnPostgres)('two processes behind nginx on PostgreSQL, Redis and S3', { timeout: 45_000 }, () => {
  it(`counts code logins per client address over both processes (${LOGIN_ATTEMPTS_PER_MINUTE} a minute in all)`, async () => {
    const address = newClientAddress();
    const browsers = [processA, processB].map((app) => new CookieJar(app.url));
    for (const browser of browsers) await browser.get('/api/csrf-cookie');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_ATTEMPTS_PER_MINUTE + 2; attempt++) {
      const response = await browsers[attempt % 2]!.post(
        '/api/account/checkauth',
        { code: await unusedCode(db) },
        { 'x-forwarded-for': address },
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it(`counts a player's cape uploads over both processes (${TEXTURE_UPLOADS_PER_10_MINUTES} per 10 minutes in all)`, async () => {
    const { jar } = await logIn(processA.url);
    const browsers = [jar, sameBrowserAt(processB.url, jar)];
    const statuses: number[] = [];
    for (let upload = 0; upload < TEXTURE_UPLOADS_PER_10_MINUTES + 2; upload++) {
      statuses.push((await browsers[upload % 2]!.upload('/api/upload-cape', await newCape())).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('a process killed with SIGKILL in the middle of a series of uploads loses no acknowledged one, and the other keeps answering', async () => {
    const uploads = 10;
    const players = await Promise.all(
      Array.from({ length: uploads }, async (_, i) => {
        const { jar, uuid } = await logIn(i % 2 === 0 ? processA.url : processB.url);
        return { uuid, jar: sameBrowserAt(nginx.url, jar), cape: await newCape() };
      }),
    );
    // And one upload that A is still reading when it dies (half its body sent, directly).
    const cut = await logIn(processA.url);
    const cutUpload = await startSlowUpload(processA.port, cut.jar, await newCape());
    const results: Array<{ uuid: string; status: number; cape?: string }> = [];
    let killed: Promise<unknown> | undefined;
    // Two uploads at a time through nginx; process A dies once three have been acknowledged.
    const lane = async (first: number) => {
      for (let i = first; i < uploads; i += 2) {
        const player = players[i]!;
        const response = await player.jar.upload('/api/upload-cape', player.cape);
        const body = (await response.json().catch(() => ({}))) as { cape?: string };
        results.push({ uuid: player.uuid, status: response.status, cape: body.cape });
        if (!killed && results.filter((result) => result.status === 200).length >= 3) killed = processA.kill();
      }
    };
    await Promise.all([lane(0), lane(1)]);
    expect(killed, 'process A was killed during the series').toBeDefined();
    expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });

    const acknowledged = results.filter((result) => result.status === 200);
    // At most the uploads in flight on A when it died fail, with nginx's 502: an upload is never sent to a second
    // process.
    expect(acknowledged.length).toBeGreaterThanOrEqual(uploads - 2);
    for (const failed of results.filter((result) => result.status !== 200)) expect(failed.status).toBe(502);

    // Every acknowledged upload is there on B: the profile points at it, and its bytes are served (by B and through
    // nginx).
    for (const { uuid, cape } of acknowledged) {
      expect(await capeUrl(processB.url, uuid)).toBe(cape);
      expect(await servesTexture(processB.url, cape!)).toBe(true);
      expect(await servesTexture(nginx.url, cape!)).toBe(true);
    }
    // Each acknowledged upload's texture is an answer file nginx serves (written before the upload's answer).
    const again = await fetch(acknowledged[0]!.cape!);
    expect(fs.existsSync(`${answersDir}${new URL(acknowledged[0]!.cape!).pathname}`)).toBe(true);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The upload cut off mid-body got no answer and changed nothing; one whose answer was lost is whole or not there at
    // all.
    expect(await cutUpload.finish()).toEqual([]);
    expect(await capeUrl(processB.url, cut.uuid)).toBeNull();
    for (const { uuid } of results.filter((result) => result.status !== 200)) {
      const current = await capeUrl(processB.url, uuid);
      if (current !== null) expect(await servesTexture(processB.url, current)).toBe(true);
    }

    // Through nginx everything keeps working: reads, the site API, and a new upload.
    const reads = await Promise.all([
      ...acknowledged.map(({ uuid }) => fetch(`${nginx.url}/profile/${uuid}`)),
      ...players.map((player) => player.jar.get('/api/user')),
    ]);
    expect(reads.map((response) => response.status)).toEqual(reads.map(() => 200));
    const { jar } = await logIn(processB.url);
    expect((await sameBrowserAt(nginx.url, jar).upload('/api/upload-cape', await newCape())).status).toBe(200);
  });

  it('a process told to stop (SIGTERM) finishes the uploads it is reading, answers what follows on their connections, exits 0', async () => {
    // A new process A on the same port (as systemd restarts it), in place of the one killed above.
    await processA.kill();
    started.delete(processA);
    processA = await startProcess('A2', processA.port);
    const [first, second] = [await logIn(processA.url), await logIn(processA.url)];
    // Two uploads whose bodies arrive in two parts, on kept-alive connections like nginx's: the first is followed on
    // its connection by another request (as nginx reuses a connection), the second by nothing (the process must close
    // it).
    const followed = await startSlowUpload(processA.port, first.jar, await newCape());
    const alone = await startSlowUpload(processA.port, second.jar, await newCape());
    await new Promise((resolve) => setTimeout(resolve, 300));

    processA.child.kill('SIGTERM');
    const signalledAt = Date.now();
    // The process stops taking connections at once; nginx sends new requests to B meanwhile.
    let refused = false;
    for (let attempt = 0; attempt < 40 && !refused; attempt++) {
      refused = await fetch(`${processA.url}/api/csrf-cookie`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(refused, 'A refuses new connections while it drains').toBe(true);
    const during = await Promise.all(
      Array.from({ length: 6 }, () => sameBrowserAt(nginx.url, first.jar).get('/api/user')),
    );
    expect(during.map((response) => response.status)).toEqual(during.map(() => 200));
    expect(processA.child.exitCode, 'A is still reading the uploads').toBeNull();

    const [followedAnswers, aloneAnswers] = await Promise.all([
      followed.finish(
        `GET /api/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nCookie: ${cookieHeader(first.jar)}\r\n\r\n`,
      ),
      alone.finish(),
    ]);
    expect(followedAnswers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(aloneAnswers.map((answer) => answer.status)).toEqual([200]);
    // The request that came after the SIGTERM is answered, not refused with 503, and ends its connection.
    expect((JSON.parse(followedAnswers[1]!.body) as { uuid: string }).uuid).toBe(first.uuid);
    expect(followedAnswers[1]!.headers.get('connection')).toBe('close');
    expect(await processA.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt, 'it exits once the last answer is sent, not at its 10 s deadline').toBeLessThan(
      5000,
    );
    started.delete(processA);

    for (const [player, answers] of [
      [first, followedAnswers],
      [second, aloneAnswers],
    ] as const) {
      const uploaded = (JSON.parse(answers[0]!.body) as { cape: string }).cape;
      expect(await capeUrl(processB.url, player.uuid)).toBe(uploaded);
      expect(await servesTexture(nginx.url, uploaded)).toBe(true);
    }
  });
});
