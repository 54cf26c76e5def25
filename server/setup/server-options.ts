// The Fastify options of the app: logging, request ids, proxies, closing, body size, and the HTTP server that lets the
// mod API's fast path answer before the framework.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import { trustProxyOption, type Config } from '../config/index.ts';
import { RequestLog } from '../http/request-log.ts';
import type { LogOutput } from '../operations/log-output.ts';
import { isModApiPath } from '../routes/mod.ts';
import { isHealthCheckPath } from '../routes/operations.ts';

/** A mod API answer (or health check) slower than this is logged (they log nothing else but failures). */
const MOD_API_SLOW_MS = 500;

/**
 * The Fastify options for `config`; `answeredFirst` answers a request before Fastify does and says whether it did; the
 * log goes to `log` when given (else to stdout as pino writes it).
 */
export function serverOptions(
  config: Config,
  answeredFirst: (request: IncomingMessage, response: ServerResponse) => boolean,
  log?: LogOutput,
): FastifyHttpOptions<http.Server> {
  return {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
      ...(log ? { stream: log } : {}),
    },
    logController: new RequestLog((url) => isModApiPath(url) || isHealthCheckPath(url), MOD_API_SLOW_MS),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // While shutting down, a request that still arrives on a kept-alive connection is answered (with `Connection:
    // close`) rather than refused with 503: a load balancer would pass that 503 on, and the database stays open until
    // the end.
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    // The server is made here (as Fastify would make it) so that cached mod API answers skip the framework altogether.
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          headersTimeout:
            config.timeouts.requestMs > 0
              ? Math.min(config.timeouts.headersMs, config.timeouts.requestMs)
              : config.timeouts.headersMs,
          // How often Node looks for requests past those timeouts (its default, 30 s, would let a slow client stay that
          // long).
          connectionsCheckingInterval: Math.max(100, Math.min(1000, config.timeouts.headersMs || 1000)),
        },
        (request, response) => {
          if (!answeredFirst(request, response)) handler(request, response);
        },
      );
      server.requestTimeout = config.timeouts.requestMs;
      server.keepAliveTimeout = config.timeouts.keepAliveMs;
      return server;
    },
  };
}
