// Starts the game auth server from the environment (see docs/operations.md, "Game auth server") and stops it cleanly on SIGTERM or SIGINT.
import { ConfigError, readAuthServerConfig, type AuthServerConfig } from './config.ts';
import { createLogger } from './log.ts';
import { startAuthServer, type RunningAuthServer } from './server.ts';

const log = createLogger();

let config: AuthServerConfig;
try {
  config = readAuthServerConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  log.error(`Not starting: ${error.message}`);
  process.exit(1);
}

let running: RunningAuthServer;
try {
  running = await startAuthServer(config, log);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  log.error(`Not starting: ${message}`);
  process.exit(1);
}

const versions = config.version === false ? 'every supported game version' : `game version ${config.version}`;
log.info(`Listening on ${running.host}:${running.port} for ${versions}, asking ${config.apiUrl} for login codes`);
if (!config.onlineMode)
  log.warn(
    'Online mode is off: names are not checked with Mojang, so anyone can take any name. Use this only for tests.',
  );

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    log.info(`${signal}: stopping; players waiting for the site get their answer first`);
    const deadline = setTimeout(() => {
      log.warn('Still not stopped; exiting');
      process.exit(1);
    }, config.apiTimeoutMs + 5000);
    deadline.unref();
    void running.close().then(() => {
      log.info('Stopped');
      process.exit(0);
    });
  });
}
