// The operator CLI: `cloakroom code <username> [--admin]` prints a one-time login code; `cloakroom sweep` removes
// upload leftovers; `cloakroom backup DIR` and `cloakroom restore DIR [--force]` back a SQLite site up while it runs
// and put it back; `cloakroom answers rebuild` builds the mod API's answer directory
// (server/commands/answer-directory-command.ts); `cloakroom oauth-client add|list|remove` manages the apps that sign
// players in with the device flow (server/commands/app-client-command.ts).
import { backupSite } from '../operations/backup.ts';
import { sqliteFile } from '../operations/backup-files.ts';
import { restoreSite } from '../operations/restore.ts';
import { loadConfig } from '../config/index.ts';
import { LOGIN_CODE_TTL_MS } from '../auth/login-codes.ts';
import { isUsername } from '../../src/lib/ids.ts';
import { issueRegistrationCode, MOJANG_UNREACHABLE_HINT } from '../accounts/registration.ts';
import { recordChange } from '../events/change-log.ts';
import { OutsideServiceError } from '../../src/lib/outside-service.ts';
import { createBlobStore } from '../storage/index.ts';
import { createTextureLibrary } from '../operations/create-library.ts';
import { describeSweep, sweepLeftovers } from '../operations/sweep.ts';
import { ANSWERS_USAGE, answersCommand } from './answer-directory-command.ts';
import { APP_CLIENT_USAGE, appClientCommand } from './app-client-command.ts';
import { openSiteDatabase } from './site-database.ts';

const USAGE = `Usage: cloakroom code <username> [--admin]\n       cloakroom sweep\n       cloakroom backup <dir>\n       cloakroom restore <dir> [--force]\n       ${ANSWERS_USAGE}\n       ${APP_CLIENT_USAGE}`;

async function codeCommand(args: string[]): Promise<number> {
  const admin = args.includes('--admin');
  const names = args.filter((arg) => !arg.startsWith('--'));
  if (names.length !== 1 || !isUsername(names[0]!)) {
    console.error(names.length === 1 ? `"${names[0]}" is not a valid username.` : USAGE);
    return 2;
  }
  const config = loadConfig();
  const requested = names[0]!;
  const db = await openSiteDatabase(config);
  try {
    const outcome = await issueRegistrationCode(db, config, requested, { admin }).catch((error: unknown) => {
      if (error instanceof OutsideServiceError) return { kind: 'unreachable' as const, message: error.message };
      throw error;
    });
    if (outcome.kind === 'unreachable') {
      console.error(`${outcome.message}\n${MOJANG_UNREACHABLE_HINT}`);
      return 1;
    }
    if (outcome.kind === 'unknown') {
      console.error(`No player is called "${requested}".`);
      return 1;
    }
    const { user } = outcome;
    // The running processes learn of a new name from the change log (this process has no change bus).
    if (outcome.renamed) await recordChange(db, user.uuid, { distinctSeconds: config.answerFilesDir !== undefined });
    if (outcome.kind === 'banned') {
      console.error(`${user.username} is banned.`);
      return 1;
    }
    console.log(`Login code for ${user.username} (${user.uuid}${user.group.admin ? ', admin' : ''}): ${outcome.code}`);
    console.log(
      `It works once and expires in ${LOGIN_CODE_TTL_MS / 60000} minutes. Enter it at /account/login/minecraft.`,
    );
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
  const db = await openSiteDatabase(config);
  try {
    const library = createTextureLibrary(config, db);
    // The running processes learn of each release from the change log (within a catch-up).
    library.onRemoved(async (hash) => void (await recordChange(db, hash, { distinctSeconds: true })));
    const report = await sweepLeftovers(db, library, {
      graceMs: config.sweepGraceMs,
      notificationRetentionMs: config.paymentNotificationRetentionMs,
    });
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

/** A size in KB or MB for people. */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

async function backupCommand(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0]!.startsWith('--')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  sqliteFile(config.databaseUrl);
  if (config.s3) {
    console.log(
      `The blobs are in the S3 bucket ${config.s3.bucket}; they are copied one by one. For a large bucket, turn on the bucket's ` +
        'versioning (with a lifecycle rule for old versions) and keep the database backups alone (README, "Operations: backups").',
    );
  }
  const { manifest, snapshots } = await backupSite({
    databaseUrl: config.databaseUrl,
    store: createBlobStore(config),
    storeKind: config.s3 ? 's3' : 'local',
    directory: args[0]!,
  });
  const { database, blobs } = manifest;
  console.log(
    `Backed up the database as of ${manifest.createdAt} (${database.players} players, ${database.textures} textures, ` +
      `${database.galleryItems} gallery items; ${size(database.bytes)}) and ${blobs.count} blobs (${size(blobs.bytes)}) into ${args[0]}.`,
  );
  if (snapshots > 1)
    console.log(`Took ${snapshots} database copies: blobs were deleted between a copy and the copying of its blobs.`);
  if (manifest.missingBlobs.length > 0) {
    console.error(
      `${manifest.missingBlobs.length} texture(s) in the database have no blob in the store: ${manifest.missingBlobs.join(', ')}`,
    );
    return 1;
  }
  return 0;
}

async function restoreCommand(args: string[]): Promise<number> {
  const force = args.includes('--force');
  const rest = args.filter((arg) => arg !== '--force');
  if (rest.length !== 1 || rest[0]!.startsWith('--')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  sqliteFile(config.databaseUrl);
  const result = await restoreSite({
    databaseUrl: config.databaseUrl,
    store: createBlobStore(config),
    directory: rest[0]!,
    port: config.port,
    force,
  });
  const { manifest, replaced } = result;
  console.log(
    `Restored the backup of ${manifest.createdAt}: the database (${manifest.database.players} players, ${manifest.database.textures} textures) ` +
      `and ${manifest.blobs.count} blobs (${result.blobsWritten} written, ${result.blobsPresent} already in the store).`,
  );
  if (replaced.database) {
    console.log(
      `Replaced a database with ${replaced.database.players} players and ${replaced.database.textures} textures.`,
    );
  }
  if (replaced.blobs > 0) {
    const unowned = Math.max(0, replaced.blobs - result.blobsPresent);
    console.log(
      `The store held ${replaced.blobs} blobs; ${unowned} the backup does not have stay until the leftover sweep removes them.`,
    );
  }
  return 0;
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'code') return codeCommand(rest);
  if (command === 'sweep') return sweepCommand(rest);
  if (command === 'backup') return backupCommand(rest);
  if (command === 'restore') return restoreCommand(rest);
  if (command === 'answers') return answersCommand(rest);
  if (command === 'oauth-client') return appClientCommand(rest);
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
