// The server's own settings: storage, HTTP and proxies, logs, metrics and shutdown: each one's parser, default and
// description.
import { z } from 'zod';
import { DEFAULT_PORT } from '../../src/lib/public-base-url.ts';
import { flag, milliseconds, trustProxySetting } from './parsers.ts';
import { settingsOf } from './setting.ts';

/** The server's own settings: storage, HTTP and proxies, logs, metrics and shutdown. */
export const SERVER_SETTINGS = {
  ...settingsOf('Server and storage', {
    PORT: {
      schema: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
      description: 'port of the site + API',
    },
    HOST: { schema: z.string().default('localhost'), description: 'address to listen on (`0.0.0.0` for all)' },
    DATA_DIR: { schema: z.string().default('./data'), description: 'where SQLite and local files live' },
    DATABASE_URL: {
      schema: z.string().optional(),
      default: '`sqlite:$DATA_DIR/cloakroom.db`',
      description: '`sqlite:<file>` or `postgres://user@host:5432/db`; migrations are applied at start',
    },
    SITE_DIR: { schema: z.string().default('./dist'), description: 'the built site the server serves' },
    MAINTENANCE: {
      schema: flag,
      default: '`false`',
      description: '`true`: every `/api/` call answers 503 (the mod API and the health checks keep working)',
    },
    REDIS_URL: {
      schema: z.string().optional(),
      description:
        'Redis for profile-cache change notices across processes and shared rate limits (e.g. `redis://127.0.0.1:6379`); optional even when set: ' +
        'while it is unreachable, limits count within each process (see [operations](operations.md#redis))',
    },
    REDIS_PREFIX: {
      schema: z.string().default('cloakroom:'),
      description: 'start of every Redis key and channel this server uses (several sites can share one Redis)',
    },
    S3_BUCKET: {
      schema: z.string().optional(),
      description: 'store textures in this S3-compatible bucket instead of `DATA_DIR/textures`',
    },
    S3_ENDPOINT: {
      schema: z.string().url().optional(),
      description: 'S3-compatible endpoint (MinIO, R2, …); unset uses AWS',
    },
    S3_REGION: { schema: z.string().default('us-east-1'), description: 'bucket region' },
    S3_ACCESS_KEY_ID: {
      schema: z.string().optional(),
      description: "bucket access key id; unset uses the SDK's default chain",
    },
    S3_SECRET_ACCESS_KEY: {
      schema: z.string().optional(),
      description: "bucket secret key; unset uses the SDK's default chain",
    },
    S3_FORCE_PATH_STYLE: {
      schema: z.enum(['true', 'false']).optional(),
      default: '`true` with an endpoint',
      description: 'path-style bucket URLs (`true` or `false`)',
    },
    SWEEP_GRACE_MINUTES: {
      schema: z.coerce.number().min(1).default(60),
      description: 'age (at least 1) a leftover of an interrupted upload must reach before a sweep removes it',
    },
    SWEEP_INTERVAL_MINUTES: {
      schema: z.coerce.number().min(0).default(60),
      description: 'how often the server sweeps leftovers (first right after start); `0`: only `npx cloakroom sweep`',
    },
  }),
  ...settingsOf('HTTP and proxies', {
    TRUST_PROXY: {
      schema: trustProxySetting,
      default: '`false`',
      description:
        'behind reverse proxies: how many (`1`, `2`) or their addresses/CIDRs (`10.0.0.0/8,127.0.0.1`); the client address and HTTPS are then read ' +
        'from `X-Forwarded-*`. `true` reads as `1`, with a warning',
    },
    HEADERS_TIMEOUT_MS: {
      schema: milliseconds.default(10_000),
      description: 'time a client has to send its request headers (then 408, and the connection closes)',
    },
    REQUEST_TIMEOUT_MS: {
      schema: milliseconds.default(60_000),
      description: 'time a client has to send a whole request (`0`: no limit)',
    },
    KEEP_ALIVE_TIMEOUT_MS: {
      schema: milliseconds.default(72_000),
      description:
        "how long an idle kept-alive connection stays open (keep it longer than a load balancer's idle timeout, or the balancer meets closed connections)",
    },
  }),
  ...settingsOf('Logs, metrics and shutdown', {
    LOG_LEVEL: {
      schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      description: 'pino level (`silent` to mute)',
    },
    LOG_BUFFER_KB: {
      schema: z.coerce.number().int().min(16).default(4096),
      description:
        'KB (at least 16) of log lines held while the reader of stdout falls behind (a stalled log shipper, a paused terminal); ' +
        'lines beyond it, and lines a closed reader cannot take, are dropped and counted (see [operations](operations.md#logs))',
    },
    METRICS_PORT: {
      schema: z.union([z.literal(''), z.coerce.number().int().min(0).max(65535)]).optional(),
      description:
        'serve the Prometheus metrics at `/metrics` on this port of their own (`0`: any free port); unset serves none (see [operations](operations.md#metrics))',
    },
    METRICS_HOST: { schema: z.string().default('127.0.0.1'), description: 'address the metrics port listens on' },
    METRICS_KEY: {
      schema: z.string().optional(),
      description: 'also serve the metrics at `/metrics` on the main port, to `Authorization: Bearer <key>` only',
    },
    SHUTDOWN_GRACE_MS: {
      schema: milliseconds.default(10_000),
      description: 'on SIGTERM, how long requests in flight may take before their connections are closed',
    },
  }),
};
