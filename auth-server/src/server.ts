// The game auth server: a game server that nobody plays on. It lists the site's name and the players connected right now,
// and tells each player who joins (checked with Mojang in online mode) the login code the site hands out for them.
import type { AddressInfo, Server as NetServer } from 'node:net';
// minecraft-protocol is CommonJS and Node finds only some of its names for named imports: use its default export.
import minecraftProtocol, { type Server, type ServerClient, type ServerOptions } from 'minecraft-protocol';
import type { AuthServerConfig } from './config.ts';
import { holdLoginForMessage } from './login-gate.ts';
import type { Logger } from './log.ts';
import { disconnectMessage, type ChatComponent } from './messages.ts';
import { requestLoginCode, type JoiningPlayer, type SiteAnswer } from './site-client.ts';

/** A running auth server: where it listens, and how to stop it. */
export interface RunningAuthServer {
  host: string;
  port: number;
  /** Stops taking connections, lets players who are waiting for the site get their answer, then disconnects everyone left. */
  close(): Promise<void>;
}

/** Where a client connects from, for log lines. */
function remoteAddress(client: ServerClient): string {
  const socket = client.socket;
  return socket?.remoteAddress ? `${socket.remoteAddress}:${socket.remotePort}` : 'unknown address';
}

/** minecraft-protocol's createServer, with a clear message for a game version it does not know. */
function createMinecraftServer(options: ServerOptions): Server {
  try {
    return minecraftProtocol.createServer(options);
  } catch (error) {
    if (options.version === false || !/unsupported protocol version/i.test(String(error))) throw error;
    throw new Error(
      `AUTH_SERVER_VERSION=${options.version} is not a game version minecraft-protocol supports; leave it unset to accept ${minecraftProtocol.supportedVersions.join(', ')}`,
      { cause: error },
    );
  }
}

/** Starts the auth server and resolves once it listens; rejects when it cannot (the port is taken, the version is unknown). */
export async function startAuthServer(config: AuthServerConfig, log: Logger): Promise<RunningAuthServer> {
  const waiting = new Set<Promise<void>>();

  /** Asks the site about a player who has just been let in, and logs the outcome (never the code). */
  async function decide(client: ServerClient): Promise<ChatComponent> {
    const player: JoiningPlayer = { uuid: client.uuid.replace(/-/g, '').toLowerCase(), username: client.username };
    const who = `${player.username} (${player.uuid}, protocol ${client.protocolVersion}, ${remoteAddress(client)})`;
    const started = Date.now();
    let answer: SiteAnswer;
    try {
      answer = await requestLoginCode(config, player);
    } catch (error) {
      answer = { kind: 'unavailable', cause: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    const took = `${Date.now() - started} ms`;
    if (answer.kind === 'code') log.info(`${who}: login code handed out (${took})`);
    else if (answer.kind === 'banned') log.info(`${who}: banned, told so (${took})`);
    else log.error(`${who}: no code, the site is not available: ${answer.cause}`);
    return disconnectMessage(answer);
  }

  const server = createMinecraftServer({
    host: config.host,
    port: config.port,
    'online-mode': config.onlineMode,
    motd: config.motd,
    maxPlayers: config.maxPlayers,
    version: config.version,
    // Nobody reaches the play state for long: no keep-alive packets, no console noise from the library.
    keepAlive: false,
    hideErrors: true,
    errorHandler: (client, error) => {
      log.warn(`Connection ${remoteAddress(client as ServerClient)} dropped after a protocol error: ${error.message}`);
      client.end('Protocol error');
    },
    beforeLogin: (client) => {
      const held = holdLoginForMessage(client as ServerClient, () => decide(client as ServerClient)).catch(
        (error: unknown) => {
          log.error(
            `Could not answer ${client.username}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          client.socket?.destroy();
        },
      );
      waiting.add(held);
      void held.finally(() => waiting.delete(held));
    },
  });
  // The library keeps its net.Server here; the typings do not list it.
  const socketServer = (server as unknown as { socketServer: NetServer }).socketServer;

  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', (error) =>
      reject(new Error(`could not listen on ${config.host}:${config.port}: ${error.message}`, { cause: error })),
    );
  });
  server.on('error', (error) => log.error(`Server error: ${error.message}`));
  const address = socketServer.address() as AddressInfo;

  return {
    host: address.address,
    port: address.port,
    close: async () => {
      const closed = new Promise<void>((resolve) => socketServer.close(() => resolve()));
      await Promise.allSettled([...waiting]);
      for (const client of Object.values(server.clients))
        client.end('The server is restarting. Try again in a minute.');
      await closed;
    },
  };
}
