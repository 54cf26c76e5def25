// Runs the game auth server package (auth-server/) as child processes: the server itself, and its probe, a game client
// that joins with a name and a version (or pings the server list) and prints what the server said as one JSON line.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PACKAGE = path.resolve(import.meta.dirname, '../../auth-server');
const MAIN = path.join(PACKAGE, 'src/main.ts');
const PROBE = path.join(PACKAGE, 'src/probe.ts');

/** A running auth server process: its port, its log so far, and how to stop it. */
export interface AuthServerProcess {
  port: number;
  /** Every line the server has logged so far. */
  log: string[];
  /** Sends SIGTERM and resolves with the exit code once the process has ended. */
  stop(): Promise<number | null>;
}

/** What the probe printed: how the server disconnected it, or the server list entry, or what went wrong. */
export type ProbeResult =
  | { event: 'disconnected'; state: string; reason: string; text: string }
  | {
      event: 'status';
      response: {
        version: { name: string; protocol: number };
        players: { max: number; online: number };
        description: unknown;
      };
    }
  | { event: 'joined' | 'ended' | 'error' | 'timeout'; reason?: string; message?: string };

/** Runs `node auth-server/src/main.ts` with an environment; resolves with its exit code and output once it ends. */
export function runAuthServerMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** Throws a clear error when the auth server package's dependencies are not installed. */
function requireInstalledPackage(): void {
  if (!fs.existsSync(path.join(PACKAGE, 'node_modules/minecraft-protocol/package.json'))) {
    throw new Error(
      'The auth server package is not installed: run `npm run auth-server:install` (npm test does it first).',
    );
  }
}

/**
 * Starts the auth server on 127.0.0.1 and a free port, in offline mode, with extra settings; resolves once it logs that
 * it listens.
 */
export function startAuthServerProcess(env: Record<string, string>): Promise<AuthServerProcess> {
  requireInstalledPackage();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      AUTH_SERVER_HOST: '127.0.0.1',
      AUTH_SERVER_PORT: '0',
      AUTH_SERVER_ONLINE_MODE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The auth server did not start in 15 s:\n${log.join('\n')}`)),
      15_000,
    );
    let pending = '';
    const onOutput = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        log.push(line);
        const listening = /Listening on [^ ]+:(\d+)/.exec(line);
        if (listening) {
          clearTimeout(timer);
          resolve({
            port: Number(listening[1]),
            log,
            stop: async () => {
              if (child.exitCode === null) child.kill('SIGTERM');
              return exited;
            },
          });
        }
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The auth server exited (${code}) before it listened:\n${[...log, pending].join('\n')}`));
    });
  });
}

/** Runs the probe against a port: joins as `username` with a game version, or (status) pings the server list. */
export function runProbe(
  port: number,
  options: { username: string; version: string } | { status: true; version?: string },
): Promise<ProbeResult> {
  const args = [PROBE, '--port', String(port), '--timeout', '15000'];
  if ('status' in options) args.push('--status');
  else args.push('--username', options.username);
  if (options.version) args.push('--version', options.version);
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', () => {
      const line = stdout.trim().split('\n').pop();
      try {
        resolve(JSON.parse(line!) as ProbeResult);
      } catch {
        reject(new Error(`The probe printed no result: ${stdout}${stderr}`));
      }
    }),
  );
}

/** The uuid an offline-mode server gives a name (version 3, from "OfflinePlayer:<name>"), as 32 hex characters. */
export function offlineUuid(username: string): string {
  const bytes = createHash('md5').update(`OfflinePlayer:${username}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}
