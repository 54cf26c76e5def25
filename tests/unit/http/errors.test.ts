// Unit tests for the error handler: server faults are logged as errors, a client that closed the connection is not,
// and an outside service's failure is a 502 logged as a warning whose detail the visitor never sees.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { handleError, HttpError, OUTSIDE_SERVICE_MESSAGE, whenServiceFails } from '../../../server/http/errors.ts';
import { OutsideServiceError } from '../../../src/lib/outside-service.ts';

function fakeExchange(connection: { destroyed: boolean }) {
  const logged: Array<{ level: string; message: string; details?: unknown }> = [];
  const log = Object.fromEntries(
    ['error', 'warn', 'info', 'debug'].map((level) => [
      level,
      (details: unknown, message: string) => logged.push({ level, message, details }),
    ]),
  );
  const sent: Array<{ status: number; body: unknown }> = [];
  let status = 200;
  const reply = {
    raw: { destroyed: connection.destroyed },
    status(code: number) {
      status = code;
      return reply;
    },
    send(body: unknown) {
      sent.push({ status, body });
      return reply;
    },
  };
  // A request's own stream reads as destroyed once its body is read; only its socket says whether the client is there.
  const request = { log, raw: { destroyed: true, socket: { destroyed: connection.destroyed } } };
  return { request: request as unknown as FastifyRequest, reply: reply as unknown as FastifyReply, logged, sent };
}

describe('handleError', () => {
  it('logs a server fault as an error and answers 500 without details', () => {
    const { request, reply, logged, sent } = fakeExchange({ destroyed: false });
    handleError(Object.assign(new Error('disk on fire'), { statusCode: 500 }) as never, request, reply);
    expect(logged.map((line) => line.level)).toEqual(['error']);
    expect(sent).toEqual([{ status: 500, body: { error: 'Something went wrong' } }]);
  });

  it('does not log a download the client aborted as an error', () => {
    for (const [error, destroyed] of [
      [Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), false],
      [Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), true],
      [new Error('write after end'), true],
    ] as const) {
      const { request, reply, logged } = fakeExchange({ destroyed });
      handleError(error as never, request, reply);
      expect(
        logged.map(({ level, message }) => ({ level, message })),
        error.message,
      ).toEqual([{ level: 'info', message: 'the client closed the connection' }]);
    }
  });

  it('answers an HttpError with its status and body, logging nothing', () => {
    const { request, reply, logged, sent } = fakeExchange({ destroyed: false });
    handleError(new HttpError(404, 'Not here'), request, reply);
    expect(logged).toEqual([]);
    expect(sent).toEqual([{ status: 404, body: { error: 'Not here' } }]);
  });

  it("answers an outside service's failure 502 with the route's message, or a fixed one, and logs what the service said as a warning", () => {
    const failure = new OutsideServiceError(
      "PayPal's IPN verification",
      'status',
      'answered status 500 (HTTP 500): <html>trace 5c1e</html>',
    );
    const mapped = (() => {
      try {
        return whenServiceFails('The notification could not be verified.')(failure);
      } catch (error) {
        return error;
      }
    })();
    for (const [error, message] of [
      [mapped, 'The notification could not be verified.'],
      [failure, OUTSIDE_SERVICE_MESSAGE],
    ] as const) {
      const { request, reply, logged, sent } = fakeExchange({ destroyed: false });
      handleError(error as never, request, reply);
      expect(sent).toEqual([{ status: 502, body: { error: message } }]);
      expect(JSON.stringify(sent)).not.toContain('5c1e');
      expect(logged).toEqual([
        {
          level: 'warn',
          message: 'an outside service failed',
          details: {
            service: "PayPal's IPN verification",
            failure: 'status',
            detail: 'answered status 500 (HTTP 500): <html>trace 5c1e</html>',
          },
        },
      ]);
    }
    const other = new Error('not a service');
    expect(() => whenServiceFails('x')(other)).toThrow(other);
  });
});
