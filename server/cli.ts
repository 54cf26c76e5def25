// The operator CLI: `cloakroom code <username> [--admin]` prints a one-time login code; `cloakroom sweep` removes upload leftovers.
import { loadConfig } from './config.ts';
import { LOGIN_CODE_TTL_MS } from './auth/login-codes.ts';
import { isUsername } from './auth/player-ids.ts';
import { issueRegistrationCode } from './auth/registration.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createTextureLibrary } from './textures/create-library.ts';
import { describeSweep, sweepLeftovers } from './textures/sweep.ts';

const USAGE = 'Usage: cloakroom code <username> [--admin]\n       cloakroom sweep';

async function codeCommand(args: string[]): Promise<number> {
  const admin = args.includes('--admin');
  const names = args.filter((arg) => !arg.startsWith('--'));
  if (names.length !== 1 || !isUsername(names[0]!)) {
    console.error(names.length === 1 ? `"${names[0]}" is not a valid username.` : USAGE);
    return 2;
  }
  const config = loadConfig();
  const requested = names[0]!;
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const outcome = await issueRegistrationCode(db, config, requested, { admin });
    if (outcome.kind === 'unknown') {
      console.error(`No player is called "${requested}".`);
      return 1;
    }
    const { user } = outcome;
    if (outcome.kind === 'banned') {
      console.error(`${user.username} is banned.`);
      return 1;
    }
    console.log(`Login code for ${user.username} (${user.uuid}${user.group.admin ? ', admin' : ''}): ${outcome.code}`);
    console.log(`It works once and expires in ${LOGIN_CODE_TTL_MS / 60000} minutes. Enter it at /account/login/minecraft.`);
    return 0;
  } finally {
    await db.destroy();
  }
}

async function sweepCommand(args: string[]): Promise<number> {
  if (args.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const report = await sweepLeftovers(db, createTextureLibrary(config, db), { graceMs: config.sweepGraceMs });
    for (const line of describeSweep(report)) console.log(`Removed ${line}`);
    const minutes = config.sweepGraceMs / 60_000;
    console.log(
      `Removed ${report.partialWrites.length} partial write(s), ${report.textures.length} unreferenced texture(s) and ` +
        `${report.blobs.length} unowned blob(s) older than ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'code') return codeCommand(rest);
  if (command === 'sweep') return sweepCommand(rest);
  console.error(USAGE);
  return 2;
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
