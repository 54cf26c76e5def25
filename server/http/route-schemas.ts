// Route schemas with zod: input checked before the handler (Laravel-style 422 on failure), answers checked against
// their schemas, and the response helpers every route uses (errors, images, redirects, bodies without JSON).
import type { FastifyInstance, FastifyReply, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { anyErrorBodySchema, errorBodySchema } from '../../src/lib/schemas/common.ts';
import { validationError } from './errors.ts';

export type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Checks params, query, headers and body with the route's zod schema; an absent body is checked as `{}`, so missing
 * fields get their messages.
 */
const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    return result.success ? { value: result.data } : { error: validationError(result.error) };
  };

/**
 * What is wrong with a route's schema (no summary, no response schema, path parameters without a schema), or null when
 * nothing is.
 */
function routeSchemaProblem(route: {
  url: string;
  schema?: { hide?: boolean; summary?: string; response?: unknown; params?: unknown };
}): string | null {
  const schema = route.schema;
  if (!schema?.summary) return 'it has no summary';
  if (!schema.response || Object.keys(schema.response).length === 0) return 'it declares no response schema';
  if (route.url.includes('/:') && !schema.params) return 'its path parameters have no schema';
  return null;
}

/**
 * Makes an app validate with zod schemas and check every JSON answer against its response schema, and refuses to
 * register a route whose schema is missing (so none goes unchecked or undocumented); `mayHide` names the routes that
 * may stay out of the description (the site's files, the description itself).
 */
export function useZodSchemas(app: FastifyInstance, mayHide: (url: string) => boolean): void {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (route) => {
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    const problem = hidden
      ? mayHide(route.url)
        ? null
        : 'it is hidden from the API description'
      : routeSchemaProblem(route);
    if (problem) throw new Error(`Route ${String(route.method)} ${route.url}: ${problem}`);
  });
}

/** The error answers every route may give: a message, or field errors for 422. */
export const errorResponses = { '4xx': anyErrorBodySchema, '5xx': errorBodySchema } as const;

/** A response that carries a file of the given type (an image, a download). */
export function fileResponse(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: z.string().meta({ format: 'binary' }) } } };
}

/** A response without a body (204, 304, a redirect). */
export function emptyResponse(description: string) {
  return z.null().meta({ description });
}

/**
 * Sends bytes as a file of the given type (file answers are never serialized, whatever the route's typed reply says).
 */
export function sendFile(reply: FastifyReply, mediaType: string, bytes: Buffer): FastifyReply {
  return reply.type(mediaType).send(bytes);
}
