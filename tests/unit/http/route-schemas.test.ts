// Unit tests for the route schema rules: a route without a schema cannot be registered, bad input is a Laravel-style
// 422, and an answer that does not match its schema never reaches the client.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handleError } from '../../../server/http/errors.ts';
import { errorResponses, useZodSchemas, type ZodTypeProvider } from '../../../server/http/route-schemas.ts';

/** A Fastify app with the project's schema rules; only `/files/*` may be hidden. */
function appWithRules() {
  const app = Fastify({ logger: false });
  useZodSchemas(app, (url) => url.startsWith('/files/'));
  app.setErrorHandler(handleError);
  return app.withTypeProvider<ZodTypeProvider>();
}

describe('route schema rules', () => {
  it('refuses a route without a response schema, without a summary, or with unchecked path parameters', () => {
    const app = appWithRules();
    expect(() => app.get('/api/bare', async () => ({}))).toThrow(/no summary/);
    expect(() => app.get('/api/no-response', { schema: { summary: 'x' } }, async () => ({}))).toThrow(
      /no response schema/,
    );
    expect(() =>
      app.get('/api/item/:id', { schema: { summary: 'x', response: { 200: z.object({}) } } }, async () => ({})),
    ).toThrow(/path parameters/);
    expect(() => app.get('/api/hidden', { schema: { hide: true } }, async () => ({}))).toThrow(/hidden/);
    expect(() => app.get('/files/a', { schema: { hide: true } }, async () => ({}))).not.toThrow();
    expect(() =>
      app.get(
        '/api/item/:id',
        { schema: { summary: 'x', params: z.object({ id: z.string() }), response: { 200: z.object({}) } } },
        async () => ({}),
      ),
    ).not.toThrow();
  });

  it('answers bad input with 422 and the messages of each field', async () => {
    const app = appWithRules();
    app.post(
      '/api/echo',
      {
        schema: {
          summary: 'echo',
          body: z.object({ name: z.string({ message: 'A name is needed.' }), age: z.number().int() }),
          response: { 200: z.object({ name: z.string() }), ...errorResponses },
        },
      },
      async (request) => ({ name: request.body.name }),
    );
    const missing = await app.inject({ method: 'POST', url: '/api/echo' });
    expect(missing.statusCode).toBe(422);
    const body = missing.json<{ message: string; errors: Record<string, string[]> }>();
    expect(body.message).toBe('A name is needed.');
    expect(Object.keys(body.errors).sort()).toEqual(['age', 'name']);
    const fine = await app.inject({ method: 'POST', url: '/api/echo', payload: { name: 'Steve', age: 3 } });
    expect(fine.statusCode).toBe(200);
    expect(fine.json()).toEqual({ name: 'Steve' });
  });

  it('never sends an answer that breaks its schema, and drops fields the schema does not name', async () => {
    const app = appWithRules();
    const answer = z.object({ uuid: z.string(), username: z.string() });
    app.get(
      '/api/broken',
      { schema: { summary: 'broken', response: { 200: answer, ...errorResponses } } },
      async () => ({ uuid: 42 }) as unknown as z.output<typeof answer>,
    );
    app.get('/api/leaky', { schema: { summary: 'leaky', response: { 200: answer, ...errorResponses } } }, async () => ({
      uuid: 'a',
      username: 'b',
      banned: true,
    }));
    const broken = await app.inject({ method: 'GET', url: '/api/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ error: 'Something went wrong' });
    const leaky = await app.inject({ method: 'GET', url: '/api/leaky' });
    expect(leaky.json()).toEqual({ uuid: 'a', username: 'b' });
  });
});
