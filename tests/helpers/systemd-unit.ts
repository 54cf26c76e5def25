// Reads a systemd service unit of deploy/systemd and runs its ExecStart as systemd would: systemd's own PATH, the
// unit's Environment= lines, then its EnvironmentFile= files (whose settings win), %i filled in, from its
// WorkingDirectory.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** systemd's PATH for services (before the unit's Environment=): the machine's own programs, its node among them. */
export const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The [Service] settings a unit runs with: each key's values in order. */
export type ServiceSettings = Map<string, string[]>;

/** The [Service] section of a unit file: each key's values in order (continuation lines are not used in our units). */
export function readServiceSettings(file: string): ServiceSettings {
  const settings: ServiceSettings = new Map();
  let section = '';
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const equals = line.indexOf('=');
    const key = line.slice(0, equals);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(equals + 1)]);
  }
  return settings;
}

/** `KEY=value` pairs of an Environment= line or an environment file's lines (no quoting in our files). */
function assignments(text: string, separator: RegExp): [string, string][] {
  return text
    .split(separator)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith('#'))
    .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]);
}

/**
 * How to run a unit here: the checkout stands where the unit says the code is, and each EnvironmentFile= path gets the
 * given file.
 */
export interface UnitRun {
  /** The unit's code directory (`/srv/cloakroom`) and where the checkout under test really is. */
  codeDirectory: { unit: string; here: string };
  /** The instance name (%i), e.g. the port of cloakroom@.service. */
  instance?: string;
  /**
   * The environment files' paths as the unit names them (after %i), and the file to read instead; a missing one is
   * skipped as systemd skips a `-` path.
   */
  environmentFiles: Record<string, string>;
}

/** Starts the unit's ExecStart as systemd would; the returned process is the service's main process. */
export function startUnit(settings: ServiceSettings, run: UnitRun): ChildProcess {
  const fill = (value: string) =>
    value.replaceAll('%i', run.instance ?? '').replaceAll(run.codeDirectory.unit, run.codeDirectory.here);
  const env: Record<string, string> = { PATH: SYSTEMD_PATH, LANG: 'C.UTF-8' };
  for (const line of settings.get('Environment') ?? [])
    for (const [key, value] of assignments(fill(line), / +/)) env[key] = value;
  for (const line of settings.get('EnvironmentFile') ?? []) {
    const optional = line.startsWith('-');
    const named = line.slice(optional ? 1 : 0).replaceAll('%i', run.instance ?? '');
    const file = run.environmentFiles[named];
    if (file === undefined || !fs.existsSync(file)) {
      if (optional) continue;
      throw new Error(`The unit needs the environment file ${named}`);
    }
    for (const [key, value] of assignments(fs.readFileSync(file, 'utf8'), /\n/)) env[key] = value;
  }
  const [command, ...args] = fill(settings.get('ExecStart')![0]!).split(/ +/);
  return spawn(command!, args, {
    cwd: fill(settings.get('WorkingDirectory')![0]!),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
