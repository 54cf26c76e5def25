// Runs the operator CLI (`node bin/cloakroom.mjs …`) as an operator would, in a process of its own, for the CLI tests.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a CLI run printed, and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/cloakroom.mjs ...args` with extra environment variables (logs silent; DATA_DIR an unused folder unless
 * given).
 */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/cloakroom.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: path.join(os.tmpdir(), 'cloakroom-cli-unused'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
