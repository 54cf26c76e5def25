// The deploy files as an operator runs them on a machine whose own node is older than the project's (Debian's): the
// site built with `npm run build` as deploy/README.md says, then each systemd unit of deploy/systemd started as systemd
// starts it. The built pages speak of the operator's site name only; the app process serves them and /healthz, the game
// auth server listens, both on the project's own Node, and both stop cleanly on systemd's SIGTERM.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../support/app-process.ts';
import { readServiceSettings, startUnit, SYSTEMD_PATH } from '../../helpers/systemd-unit.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Where the units say the checkout is. */
const UNIT_CODE_DIRECTORY = '/srv/cloakroom';
/** The project's own Node, which `npm ci` puts in node_modules/.bin. */
const PROJECT_NODE = fs.realpathSync(path.join(ROOT, 'node_modules/.bin/node'));

/** Resolves once `probe` succeeds; rejects with the process's output when it exits first or 60 s pass. */
async function waitFor(child: ChildProcess, output: () => string, probe: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 240; tries += 1) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The unit's process ended (${child.exitCode ?? child.signalCode}):\n${output()}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The unit's process did not get ready:\n${output()}`);
}

/** Collects a process's output. */
function outputOf(child: ChildProcess): () => string {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

/** systemd's stop: SIGTERM to the main process; resolves with its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('deploy/systemd units, run as systemd runs them', { timeout: 120_000 }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-deploy-units-'));
  const siteDir = path.join(work, 'dist');
  const running: ChildProcess[] = [];

  beforeAll(() => {
    fs.writeFileSync(
      path.join(work, 'env'),
      [
        `DATA_DIR=${path.join(work, 'data')}`,
        'DATABASE_URL=',
        `SITE_DIR=${siteDir}`,
        'OFFLINE_MODE=true',
        'LOG_LEVEL=warn',
        'PUBLIC_SITE_NAME=DeployTestCapes',
      ].join('\n'),
    );
    // deploy/README.md's build: the machine's npm (on the machine's node), the settings file read into the shell.
    const build = spawnSync('sh', ['-c', `set -a; . ${path.join(work, 'env')}; set +a; npm run build`], {
      cwd: ROOT,
      env: { PATH: SYSTEMD_PATH, HOME: process.env.HOME ?? work },
      encoding: 'utf8',
    });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
  }, 120_000);

  afterAll(() => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('cloakroom@.service serves the built site and /healthz on the project’s Node, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = startUnit(readServiceSettings(path.join(ROOT, 'deploy/systemd/cloakroom@.service')), {
      codeDirectory: { unit: UNIT_CODE_DIRECTORY, here: ROOT },
      instance: String(port),
      environmentFiles: { '/etc/cloakroom/env': path.join(work, 'env') },
    });
    running.push(child);
    const output = outputOf(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(child, output, async () => (await fetch(`${base}/healthz`)).status === 200);

    expect(fs.realpathSync(`/proc/${child.pid}/exe`), 'the server runs on the project’s Node').toBe(PROJECT_NODE);
    const home = await fetch(`${base}/`);
    expect(home.status, 'the site `npm run build` built is served').toBe(200);
    expect(await home.text()).toContain('<title>Home | DeployTestCapes</title>');
    expect(await stop(child), output()).toBe(0);
  });

  it('builds a site that speaks of the operator’s site name only, legal pages included', () => {
    const pages = fs
      .readdirSync(siteDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages)
      expect(fs.readFileSync(path.join(siteDir, page), 'utf8'), page).not.toContain('Cloakroom');
    for (const page of [
      'legal/privacy.html',
      'legal/terms.html',
      'legal/disclaimer.html',
      'legal/rules.html',
      'help.html',
    ]) {
      expect(fs.readFileSync(path.join(siteDir, page), 'utf8'), page).toContain('DeployTestCapes');
    }
  });

  it('cloakroom-auth.service listens for players on the project’s Node, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    fs.writeFileSync(
      path.join(work, 'auth-server.env'),
      [
        'AUTH_API_KEY=deploy-units-key',
        'AUTH_SERVER_HOST=127.0.0.1',
        `AUTH_SERVER_PORT=${port}`,
        'AUTH_SERVER_ONLINE_MODE=false',
      ].join('\n'),
    );
    const child = startUnit(readServiceSettings(path.join(ROOT, 'deploy/systemd/cloakroom-auth.service')), {
      codeDirectory: { unit: UNIT_CODE_DIRECTORY, here: ROOT },
      environmentFiles: { '/etc/cloakroom/auth-server.env': path.join(work, 'auth-server.env') },
    });
    running.push(child);
    const output = outputOf(child);
    const accepts = () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
        socket.once('error', () => resolve(false));
      });
    await waitFor(child, output, accepts);

    expect(fs.realpathSync(`/proc/${child.pid}/exe`), 'the auth server runs on the project’s Node').toBe(PROJECT_NODE);
    expect(await stop(child), output()).toBe(0);
  });
});
