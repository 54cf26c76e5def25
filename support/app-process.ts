// Starts the real server (server/main.ts, what `npm start` runs) as a process of its own on a given port, for tests and
// benchmarks that need several processes, signals and crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running server process: its address, the process, its output so far, and how it ended once it has. */
export interface AppProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<ProcessExit>;
  /** SIGKILL, and wait for the exit (nothing when it has already exited). */
  kill(): Promise<ProcessExit>;
}

/**
 * Where freePort looks: below the kernel's ephemeral range (32768 and up), so no outgoing connection can take the port
 * between the check and the server's own listen. Each test worker has a slice of its own, so two workers never hand out
 * the same port.
 */
const PORT_SLICE_SIZE = 2000;
const PORT_SLICES_FIRST = 20000;
const PORT_SLICE_COUNT = 6;
const handedOut = new Set<number>();

/** Whether any process of a process group (a child started with `detached`) is still alive. */
export function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port on 127.0.0.1 below 32768 that was free a moment ago, and not handed out before by this process. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? process.pid);
  const first = PORT_SLICES_FIRST + (worker % PORT_SLICE_COUNT) * PORT_SLICE_SIZE;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = first + randomInt(PORT_SLICE_SIZE);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`No free port in ${first}-${first + PORT_SLICE_SIZE - 1} after 200 tries.`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The environment of a server on SQLite and local files in `dataDir`, with no site build, on a port the system picks,
 * logging at info.
 */
export function dataDirServerEnv(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SITE_DIR: path.join(dataDir, 'dist'),
    SKIP_SITE_BUILD: 'true',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
}

/**
 * Starts `node --import tsx server/main.ts` (as systemd runs it: no npm or tsx parent process, so a signal reaches the
 * server itself) with PORT, HOST=127.0.0.1 and `env` over this process's environment, and waits until it answers.
 */
export async function startAppProcess(
  name: string,
  port: number,
  env: Record<string, string>,
  options: { readyTimeoutMs?: number } = {},
): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const running: AppProcess = {
    name,
    port,
    url,
    child,
    output: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`${url}/api/csrf-cookie`, { signal: AbortSignal.timeout(1000) });
      return running;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await running.kill();
  throw new Error(`The app process ${name} did not start on port ${port}:\n${output}`);
}
