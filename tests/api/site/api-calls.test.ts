// API test for the site's call table (src/lib/api-calls.ts and src/lib/schemas/api-calls.ts): every call in it is a
// route the server registers, with the same method and path, and the route checks its body, query and answer with the
// table's schemas (the same schema, or one that describes the same JSON).
import type { RouteOptions } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { API_CALLS, type ApiCallName } from '../../../src/lib/api-calls.ts';
import { API_CALL_SCHEMAS } from '../../../src/lib/schemas/api-calls.ts';
import { creationSchema } from '../../../src/lib/schemas/creators.ts';
import { creationImageResponses } from '../../../server/routes/creators/shared.ts';
import { oneBackend } from '../../../support/backends.ts';
import type * as RouteSchemas from '../../../server/http/route-schemas.ts';
import { serverForSuite } from '../../helpers/server.ts';

/** Every route the app registers, with its schemas, as it registers them. */
const registered = vi.hoisted(() => [] as RouteOptions[]);

vi.mock('../../../server/http/route-schemas.ts', async (importOriginal) => {
  const original = await importOriginal<typeof RouteSchemas>();
  return {
    ...original,
    useZodSchemas: (...[app, mayHide]: Parameters<typeof original.useZodSchemas>) => {
      app.addHook('onRoute', (route) => void registered.push(route));
      original.useZodSchemas(app, mayHide);
    },
  };
});

/** A route's path without its parameters' patterns (`/api/gallery/:hash(^…$)` → `/api/gallery/:hash`). */
function plainPath(url: string): string {
  return url.replace(/(:\w+)\([^/]*\)/g, '$1');
}

/** The JSON Schema of a schema, for comparing two that describe the same JSON; undefined for none. */
function described(schema: unknown, io: 'input' | 'output'): unknown {
  return schema instanceof z.ZodType ? z.toJSONSchema(schema, { io, unrepresentable: 'any' }) : undefined;
}

/** Expects a route's schema to be the table's, or one that describes the same JSON. */
function expectSameSchema(route: unknown, table: unknown, io: 'input' | 'output', what: string): void {
  if (route === table) return;
  expect(described(route, io), what).toEqual(described(table, io));
  expect(described(route, io), what).toBeDefined();
}

describe.each([oneBackend])('the call table and the server agree on $name', (backend) => {
  serverForSuite(backend);

  /** The registered route of a call, by method and path. */
  const routeOf = (name: ApiCallName) => {
    const { method, path } = API_CALLS[name];
    return registered.find((route) => [route.method].flat().includes(method) && plainPath(route.url) === path);
  };

  it.each(Object.keys(API_CALLS) as ApiCallName[])('%s is a route with the same method, path and schemas', (name) => {
    const route = routeOf(name);
    expect(route, `${API_CALLS[name].method} ${API_CALLS[name].path}`).toBeDefined();
    const schema = (route!.schema ?? {}) as {
      body?: unknown;
      querystring?: unknown;
      response?: Record<string, unknown>;
    };
    const table: { body?: unknown; query?: unknown; answer?: unknown } = API_CALL_SCHEMAS[name];
    expectSameSchema(schema.body, table.body, 'input', 'body');
    expectSameSchema(schema.querystring, table.query, 'input', 'query');
    const answer = schema.response?.['200'];
    // A creator that answers the picture, or its creation as JSON when asked (the site asks): its 200 describes the
    // picture, and the table holds the creation.
    if (answer === creationImageResponses[200]) expect(table.answer).toBe(creationSchema);
    else if (answer instanceof z.ZodType || table.answer !== undefined)
      expectSameSchema(answer, table.answer, 'output', 'answer');
  });

  it('names each route once', () => {
    const routes = Object.values(API_CALLS).map(({ method, path }) => `${method} ${path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});
