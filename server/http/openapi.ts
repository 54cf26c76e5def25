// The API description: OpenAPI 3.1 generated from the routes' zod schemas, served at /api/openapi.json, with a
// reference page at /api/docs.
import type { FastifyInstance } from 'fastify';
import fastifySwagger, { type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { BASE_SECURITY_HEADERS, SECURITY_HEADERS } from './security-headers.ts';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { MINECRAFT_CAPES_API_ROOT } from '../../src/lib/mod-setup.ts';

/** Where the description and the reference page are served. */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** The groups the description sorts its calls into, by path. */
const TAGS = [
  {
    name: 'Mod API',
    description:
      "What players' games call: profiles, textures and the layouts other mods read. Never stopped by maintenance mode; no cookies.",
    prefixes: ['/profile/', '/textures/', '/capes/', '/elytras/', '/csl/', MINECRAFT_CAPES_API_ROOT],
  },
  {
    name: 'Internal',
    description: 'Calls from the game auth server, with `Authorization: Bearer $AUTH_API_KEY`.',
    prefixes: ['/api/internal/'],
  },
  {
    name: 'Bot',
    description:
      'Calls from the chat-community bot, with `Authorization: Bearer $DISCORD_BOT_KEY`: account links, boosting, the premium role.',
    prefixes: ['/api/bot/'],
  },
  {
    name: 'Apps (device flow)',
    description:
      'The authorization server launchers and mods sign players in with (OAuth 2.0 device flow, RFC 8628; metadata per RFC 8414; ' +
      'revocation per RFC 7009). Form-encoded bodies, JSON answers, errors as `{error, error_description}`.',
    prefixes: ['/oauth/', '/.well-known/'],
  },
  {
    name: 'Account',
    description: "Logins, logout, account deletion, approving an app's sign-in code and the apps connected.",
    prefixes: ['/api/account/', '/api/device'],
  },
  { name: 'Upload', description: "A player's cape and ears.", prefixes: ['/api/upload-'] },
  { name: 'Gallery', description: 'The community gallery of textures.', prefixes: ['/api/gallery/'] },
  {
    name: 'Operations',
    description: 'Health checks for load balancers and orchestrators. Never stopped by maintenance mode; no cookies.',
    prefixes: ['/healthz', '/readyz'],
  },
  {
    name: 'Site',
    description: 'The current user, home statistics, contributors, downloads.',
    prefixes: ['/api/', '/download'],
  },
];

/** The tag of a path: the first group whose prefix it starts with. */
function tagOf(url: string): string | undefined {
  return TAGS.find((tag) => tag.prefixes.some((prefix) => url.startsWith(prefix)))?.name;
}

/** Drops the named schemas nothing refers to (the zod registry gives every named schema an input twin, used or not). */
function withoutUnusedSchemas(spec: ReturnType<SwaggerTransformObject>): ReturnType<SwaggerTransformObject> {
  const document = spec as unknown as { components?: { schemas?: Record<string, unknown> } };
  const schemas = document.components?.schemas;
  if (!schemas) return spec;
  const referenced = (value: unknown) =>
    new Set([...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!));
  // A schema is kept when the paths refer to it, or a kept schema does.
  const kept = referenced({ ...document, components: { ...document.components, schemas: {} } });
  for (let grew = true; grew;) {
    grew = false;
    for (const name of referenced([...kept].map((name) => schemas[name]))) {
      if (!kept.has(name)) {
        kept.add(name);
        grew = true;
      }
    }
  }
  const components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name))),
  };
  return { ...spec, components } as ReturnType<SwaggerTransformObject>;
}

/** Registers the OpenAPI generator (before any route, so it sees them all) and the description and reference routes. */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { siteName: string; publicBaseUrl: string },
): Promise<void> {
  const transformSchema = createJsonSchemaTransform({ skipList: [] });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${options.siteName} API`,
        version: '1',
        description:
          'The site API (cookies, `session` and `XSRF-TOKEN`, with the token echoed in `x-xsrf-token` on every state-changing call), ' +
          'the mod API that games call, and the internal calls of the game auth server. Errors are `{error}` or, for invalid input (422), `{message, errors: {field: [messages]}}`.',
      },
      servers: [{ url: options.publicBaseUrl }],
      tags: TAGS.map(({ name, description }) => ({ name, description })),
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie a login sets.' },
          xsrf: {
            type: 'apiKey',
            in: 'header',
            name: 'x-xsrf-token',
            description: 'The value of the XSRF-TOKEN cookie (any /api/ answer sets it).',
          },
          bearer: { type: 'http', scheme: 'bearer', description: 'AUTH_API_KEY of the game auth server.' },
          botKey: { type: 'http', scheme: 'bearer', description: 'DISCORD_BOT_KEY of the chat-community bot.' },
          appToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "An app's access token from the device flow (`/oauth/token`), with the scope the call lists; no XSRF header, and cookies are not read.",
          },
        },
      },
    },
    transform: (document) => {
      // A multipart call documents its fields as the request body (see multipartBody); nothing validates them as one.
      const raw = document.schema as (typeof document.schema & { multipartFields?: unknown }) | undefined;
      const described = raw?.multipartFields
        ? { ...document, schema: { ...raw, body: raw.multipartFields, multipartFields: undefined } }
        : document;
      const { schema, url } = transformSchema(described);
      const tag = tagOf(url);
      return { schema: tag && !schema.hide ? { ...schema, tags: [tag] } : schema, url };
    },
    transformObject: (document) => withoutUnusedSchemas(jsonSchemaTransformObject(document)),
  });

  app.get(
    OPENAPI_PATH,
    { schema: { hide: true }, onSend: async (_request, reply) => void reply.headers(SECURITY_HEADERS) },
    async () => app.swagger(),
  );
  // The reference page keeps the Content-Security-Policy the UI sets for its own files (staticCSP), and gets the rest.
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
    staticCSP: true,
    uiHooks: {
      onRequest: (_request, reply, next) => {
        reply.headers(BASE_SECURITY_HEADERS);
        next();
      },
    },
  });
}
