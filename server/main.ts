// Starts the server: configuration, site build when needed, database migrations, listen, leftover sweeps, graceful
// shutdown (server/operations/shutdown.ts).
import './operations/v8-flags.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config/index.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations/migrate.ts';
import { stdoutLogOutput } from './operations/log-output.ts';
import { closeOnSignals } from './operations/shutdown.ts';
import { ensureSiteBuilt, PROJECT_ROOT } from './site/build.ts';
import { leftoverSweeps } from './setup/leftover-sweeps.ts';

const config = loadConfig();

if (process.env.SKIP_SITE_BUILD !== 'true') ensureSiteBuilt(PROJECT_ROOT, config, (message) => console.log(message));

const log = stdoutLogOutput(config.logBufferBytes);
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const app = await buildApp(config, db, log);

const sweeps = leftoverSweeps(app, db, config);
closeOnSignals(app, {
  graceMs: config.shutdownGraceMs,
  beforeClose: () => sweeps.stop(),
  drainLog: (timeoutMs) => log.drain(timeoutMs),
});

await app.listen({ port: config.port, host: config.host });

sweeps.start();
