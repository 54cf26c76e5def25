// A game client for trying the auth server out and for its tests: joins in offline mode with a name and a game version and
// prints how the server answered as one JSON line, or (--status) prints the server list entry.
//   node auth-server/src/probe.ts --port 25565 --username Steve --version 1.20.4
//   node auth-server/src/probe.ts --port 25565 --status
import { parseArgs } from 'node:util';
// minecraft-protocol is CommonJS and Node finds only some of its names for named imports: use its default export.
import minecraftProtocol from 'minecraft-protocol';
import { plainText } from './messages.ts';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '25565' },
    username: { type: 'string', default: 'Steve' },
    version: { type: 'string' },
    status: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '15000' },
  },
});
const port = Number(values.port);
const timeoutMs = Number(values.timeout);

/** Prints one JSON line and exits: 0 when the server answered, 1 when it did not. */
function finish(result: Record<string, unknown>, exitCode = 0): never {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(exitCode);
}

setTimeout(() => finish({ event: 'timeout', after: timeoutMs }, 1), timeoutMs).unref();

if (values.status) {
  try {
    const response = await minecraftProtocol.ping({
      host: values.host,
      port,
      version: values.version,
      closeTimeout: timeoutMs,
    });
    finish({ event: 'status', response });
  } catch (error) {
    finish({ event: 'error', message: error instanceof Error ? error.message : String(error) }, 1);
  }
}

const client = minecraftProtocol.createClient({
  host: values.host,
  port,
  username: values.username,
  version: values.version,
  auth: 'offline',
  hideErrors: true,
  closeTimeout: timeoutMs,
});
/** A disconnect reason as the JSON text it came as (newer versions send play-state reasons as NBT, read here as an object). */
const reasonJson = (reason: unknown) => (typeof reason === 'string' ? reason : JSON.stringify(reason));
client.on('disconnect', (packet: { reason: unknown }) =>
  finish({ event: 'disconnected', state: 'login', reason: reasonJson(packet.reason), text: plainText(packet.reason) }),
);
client.on('kick_disconnect', (packet: { reason: unknown }) =>
  finish({
    event: 'disconnected',
    state: client.state,
    reason: reasonJson(packet.reason),
    text: plainText(packet.reason),
  }),
);
client.on('login', () => finish({ event: 'joined', state: client.state }, 1));
client.on('error', (error: Error) => finish({ event: 'error', message: error.message }, 1));
client.on('end', (reason: string) => finish({ event: 'ended', reason }, 1));
