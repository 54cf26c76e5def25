// Operations: the health checks a load balancer polls (/healthz: the process answers; /readyz: the database, the blob
// store and Redis answer) and, with METRICS_KEY, the Prometheus metrics on the main port. Like the mod API they sit
// outside the site's cookies, CORS, rate limits and maintenance mode.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { safeEqual } from '../auth/plugin.ts';
import type { ZodTypeProvider } from '../http/route-schemas.ts';
import type { AppContext } from '../operations/app-context.ts';

/** Where the health checks and the keyed metrics are served. */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

/** How long the database and the blob store may take to answer a readiness check. */
const READY_CHECK_TIMEOUT_MS = 2000;
/** How long Redis may take to answer its PING. */
const REDIS_PING_TIMEOUT_MS = 500;

/** Whether a request path is a health check (polled every few seconds: logged only when it fails or is slow). */
export function isHealthCheckPath(url: string): boolean {
  return url.startsWith(HEALTH_PATH) || url.startsWith(READY_PATH);
}

const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The process is up and answering' });
const checkResult = z.enum(['ok', 'failed']);
const readinessSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'unavailable']).meta({
      description:
        'ok: every check passed; degraded: Redis is down (the server keeps serving with local limits); unavailable: the database or the blob store failed',
    }),
    checks: z.object({
      database: checkResult,
      blobStore: checkResult,
      redis: z.enum(['ok', 'failed', 'not_configured']),
    }),
  })
  .meta({ id: 'Readiness' });
type Readiness = z.infer<typeof readinessSchema>;
type CheckName = keyof Readiness['checks'];

/**
 * Resolves when `check` does within `timeoutMs`, rejects when it fails or is late (its signal then aborts it where it
 * can).
 */
async function withinTime(check: (signal: AbortSignal) => Promise<unknown>, timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  const late = new Promise<never>((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
  );
  await Promise.race([check(signal), late]);
}

/** Registers GET /healthz, GET /readyz and, when a key is set, GET /metrics with that bearer key. */
export async function operationsRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, redis } = options;
  const store = options.library.store;
  /** Each check's last result, so the log tells when one starts failing and when it is back, not on every poll. */
  const previous = new Map<CheckName, string>();

  const note = (name: CheckName, result: string, error?: unknown) => {
    const before = previous.get(name) ?? 'ok';
    previous.set(name, result);
    if (result === 'failed' && before !== 'failed')
      instance.log.warn({ err: error, check: name }, `readiness check failed: ${name}`);
    if (result === 'ok' && before === 'failed')
      instance.log.info({ check: name }, `readiness check passes again: ${name}`);
  };
  const run = async (name: CheckName, check: (signal: AbortSignal) => Promise<unknown>): Promise<'ok' | 'failed'> => {
    try {
      await withinTime(check, READY_CHECK_TIMEOUT_MS);
      note(name, 'ok');
      return 'ok';
    } catch (error) {
      note(name, 'failed', error);
      return 'failed';
    }
  };
  const pingRedis = async (): Promise<Readiness['checks']['redis']> => {
    if (!redis) return 'not_configured';
    const result = (await redis.ping(REDIS_PING_TIMEOUT_MS)) ? 'ok' : 'failed';
    note(
      'redis',
      result,
      new Error(`Redis is unreachable or did not answer a PING within ${REDIS_PING_TIMEOUT_MS} ms`),
    );
    return result;
  };

  app.get(
    HEALTH_PATH,
    {
      schema: {
        summary: 'Liveness: the process is up and answering (checks nothing else)',
        response: { 200: healthSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );

  app.get(
    READY_PATH,
    {
      schema: {
        summary:
          'Readiness: the database, the blob store and Redis (when configured) answer; 503 when the database or the blob store fails',
        description:
          '200 while the server can serve: every check passed (`ok`), or only Redis is down (`degraded`: rate limits and profile change notices ' +
          'stay within the process until it is back). 503 (`unavailable`) when the database or the blob store fails or takes over 2 s.',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const [database, blobStore, redisResult] = await Promise.all([
        run('database', () => sql`select 1`.execute(db)),
        run('blobStore', (signal) => store.probe(signal)),
        pingRedis(),
      ]);
      const unavailable = database === 'failed' || blobStore === 'failed';
      const status = unavailable ? 'unavailable' : redisResult === 'failed' ? 'degraded' : 'ok';
      reply.header('cache-control', 'no-store').status(unavailable ? 503 : 200);
      return { status, checks: { database, blobStore, redis: redisResult } } satisfies Readiness;
    },
  );

  const metricsKey = options.config.metrics.key;
  if (metricsKey) {
    // Prometheus' text format, not part of the API: left out of its description.
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!token || !safeEqual(token, metricsKey)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: 'A valid metrics key is required.' });
      }
      return reply
        .type(options.metrics.contentType)
        .header('cache-control', 'no-store')
        .send(await options.metrics.text());
    });
  }
}
