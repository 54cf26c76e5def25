// `npm start` under a process manager: SIGTERM (what systemd, a container stop or a supervisor sends to the process it
// started, npm) and SIGINT stop the server itself with its graceful shutdown, and leave nothing running on the port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirServerEnv, freePort, groupAlive } from '../../../support/app-process.ts';
import { SYSTEMD_PATH } from '../../helpers/systemd-unit.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Whether anything accepts connections on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

describe('npm start', { timeout: 60_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server on %s sent to npm alone', async (signal) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-npm-start-'));
    const port = await freePort();
    // The machine's npm, as a user's shell or a process manager starts it, in a process group of its own.
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: {
        PATH: SYSTEMD_PATH,
        HOME: process.env.HOME ?? dataDir,
        ...dataDirServerEnv(dataDir),
        PORT: String(port),
        OFFLINE_MODE: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      for (let tries = 0; !(await accepts(port)); tries += 1) {
        if (npm.exitCode !== null || tries > 200) throw new Error(`npm start did not listen:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      npm.kill(signal);
      const gaveUp = new Promise((resolve) => setTimeout(resolve, 20_000, 'still running'));
      expect(await Promise.race([exited.then(() => 'ended'), gaveUp]), `npm start ended on ${signal}:\n${output}`).toBe(
        'ended',
      );
      expect(output, 'the server ran its graceful shutdown').toContain('"msg":"shut down"');
      expect(await accepts(port), 'nothing listens on the port any more').toBe(false);
      expect(groupAlive(npm.pid!), 'no process of npm start is left').toBe(false);
    } finally {
      if (groupAlive(npm.pid!)) process.kill(-npm.pid!, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
