// Per-request log lines: every request of the site at info level; on the mod API's hot paths only failures and slow
// answers.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Logs requests as Fastify does, except those `quiet` picks: for them one line, and only for a 5xx, an error or a slow
 * answer.
 */
export class RequestLog extends LogController {
  constructor(
    private readonly quiet: (url: string) => boolean,
    private readonly slowMs: number,
  ) {
    super();
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (!this.quiet(request.url)) super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!this.quiet(request.url)) return super.requestCompleted(error, request, reply);
    const responseTime = reply.elapsedTime;
    if (error || reply.statusCode >= 500) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request completed');
    } else if (responseTime >= this.slowMs) {
      reply.log.warn({ req: request, res: reply, responseTime }, 'slow request completed');
    }
  }
}
