// Starts the server: configuration, site build when needed, database migrations, listen, graceful shutdown.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { ensureSiteBuilt } from './site-build.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = loadConfig();

if (process.env.SKIP_SITE_BUILD !== 'true') ensureSiteBuilt(root, config.siteDir, (message) => console.log(message));

const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const app = await buildApp(config, db);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
