// Starts the server: configuration, site build when needed, database migrations, listen, leftover sweeps, graceful shutdown (server/operations/shutdown.ts).
import './operations/v8-flags.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { startSchedule, type Schedule } from './operations/schedule.ts';
import { closeOnSignals } from './operations/shutdown.ts';
import { ensureSiteBuilt, PROJECT_ROOT } from './site/build.ts';
import { describeSweep, sweepLeftovers } from './operations/sweep.ts';

const config = loadConfig();

if (process.env.SKIP_SITE_BUILD !== 'true') ensureSiteBuilt(PROJECT_ROOT, config.siteDir, (message) => console.log(message));

const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const app = await buildApp(config, db);

let sweeps: Schedule | undefined;
let closing = false;
closeOnSignals(app, {
  graceMs: config.shutdownGraceMs,
  beforeClose: () => {
    closing = true;
    return sweeps?.stop();
  },
});

await app.listen({ port: config.port, host: config.host });

// Leftovers of a server killed mid-upload: swept in the background from now on, every SWEEP_INTERVAL_MINUTES.
if (config.sweepIntervalMs > 0 && !closing) {
  const sweep = async (signal: AbortSignal) => {
    const removed = describeSweep(
      await sweepLeftovers(db, app.textureLibrary, { graceMs: config.sweepGraceMs, notificationRetentionMs: config.paymentNotificationRetentionMs, signal }),
    );
    if (removed.length > 0) app.log.info({ removed }, `leftover sweep removed ${removed.length} item(s)`);
  };
  sweeps = startSchedule(sweep, config.sweepIntervalMs, (error) => app.log.error({ err: error }, 'leftover sweep failed'));
}
