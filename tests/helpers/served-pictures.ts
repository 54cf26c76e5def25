// Shared pieces of tests/api/textures/served-pictures.test.ts: the moderators' removal paths and a route's case, the
// checks of whether an answer is a picture, the walk of the API description for the routes that answer one, and the
// moderators' removals as the admin pages make them.
import { expect } from 'vitest';
import { PNG_SIGNATURE } from '../../support/textures.ts';
import { messageOf } from './creators.ts';
import { loginNewUser, type LoggedIn, type TestServer } from './server.ts';

/** The moderators' removal paths a case may take a picture down by. */
export type RemovalPath =
  | 'edit user: delete cape'
  | 'edit user: delete ears'
  | 'player report: REMOVE'
  | 'gallery report: REMOVE'
  | "moderator's gallery Delete";

/** Every removal path; each must be used by at least one case. */
export const REMOVAL_PATHS: RemovalPath[] = [
  'edit user: delete cape',
  'edit user: delete ears',
  'player report: REMOVE',
  'gallery report: REMOVE',
  "moderator's gallery Delete",
];

/** One route's case: the removal paths it takes its pictures down by, and the test itself. */
export interface Case {
  removals: RemovalPath[];
  run(): Promise<void>;
}

/** The answer as a label for assertion messages: status, type and the start of the body when it is not a picture. */
export async function describeAnswer(response: Response): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  const body = type.startsWith('image/')
    ? `${(await response.clone().arrayBuffer()).byteLength} bytes`
    : await response.clone().text();
  return `${response.status} ${type} ${body.slice(0, 200)}`;
}

/** The signatures a picture's bytes start with: PNG and GIF. */
const PICTURE_SIGNATURES = [PNG_SIGNATURE, Buffer.from('GIF8')];

/** Whether a JSON value holds a picture: a string that is a PNG or GIF in base64, at any depth. */
function holdsBase64Picture(value: unknown): boolean {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'base64');
    return PICTURE_SIGNATURES.some((signature) => bytes.subarray(0, signature.length).equals(signature));
  }
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsBase64Picture);
}

/** Whether an answer is a picture: 2xx with an image/* content type, or JSON holding a picture in base64. */
export async function isPicture(response: Response): Promise<boolean> {
  if (!response.ok) return false;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('image/')) return true;
  if (!type.startsWith('application/json')) return false;
  return holdsBase64Picture(JSON.parse(await response.clone().text()) as unknown);
}

/** Expects an answer to serve a picture: 200 with an image/* content type, or JSON holding a picture in base64. */
export async function expectPicture(response: Response, label: string): Promise<void> {
  const seen = await describeAnswer(response);
  expect(response.status, `${label}: ${seen}`).toBe(200);
  expect(await isPicture(response), `${label} is no picture: ${seen}`).toBe(true);
}

/** Expects an answer not to serve a picture, with the given status and error message. */
export async function expectRefused(response: Response, status: number, message: string, label: string): Promise<void> {
  const seen = await describeAnswer(response);
  expect(await isPicture(response), `${label} still answers a picture: ${seen}`).toBe(false);
  expect(response.status, `${label}: ${seen}`).toBe(status);
  expect(await messageOf(response), `${label}: ${seen}`).toBe(message);
}

/** A JSON schema of the API description, as far as the walk reads it. */
export type Schema = { $ref?: string; contentMediaType?: string } & Record<string, unknown>;

/**
 * Whether a response schema holds a picture: a string whose `contentMediaType` is image/* (a base64 picture in JSON),
 * at any depth, following `$ref`s into the description's components.
 */
export function schemaHoldsPicture(
  schema: unknown,
  components: Record<string, Schema>,
  seen = new Set<string>(),
): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Schema;
  if (typeof node.contentMediaType === 'string' && node.contentMediaType.startsWith('image/')) return true;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return false;
    seen.add(name);
    if (schemaHoldsPicture(components[name], components, seen)) return true;
  }
  return Object.values(node).some((value) => schemaHoldsPicture(value, components, seen));
}

/** The API description (GET /api/openapi.json), as far as the walk reads it. */
export interface ApiDescription {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components?: { schemas?: Record<string, Schema> };
}

/**
 * The walk: every route of the description that answers a picture (an image/* answer, or JSON whose schema holds an
 * image/* string), by "METHOD path" as the description writes it.
 */
export function pictureRoutesOf(description: ApiDescription): string[] {
  const components = description.components?.schemas ?? {};
  return Object.entries(description.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) =>
        Object.values(operation.responses ?? {}).some((response) =>
          Object.entries(response.content ?? {}).some(
            ([type, media]) => type.startsWith('image/') || schemaHoldsPicture(media.schema, components),
          ),
        ),
      )
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

/** Runs `make` once, on first use, and answers its result to every caller after. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** A moderator's answer to the open report on a player: REMOVE for nsfw, once a second player reported them. */
export async function removeOnPlayerReport(server: TestServer, admin: LoggedIn, target: string): Promise<void> {
  const reporter = await loginNewUser(server);
  const reported = await reporter.jar.post('/api/user/report', { uuid: target, terms: true, reason: 'nsfw' });
  expect(reported.status, await reported.clone().text()).toBe(200);
  const queue = (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{
    id: number;
    uuid: string;
  }>;
  const report = queue.find((row) => row.uuid === target);
  expect(report, 'the report is in the queue').toBeDefined();
  const answer = await admin.jar.post('/api/admin/reports/user', {
    id: report!.id,
    action: 'REMOVE',
    reason: 'nsfw',
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/** A moderator's answer to a gallery report on an item: REMOVE for nsfw, once a second player reported it. */
export async function removeOnGalleryReport(server: TestServer, admin: LoggedIn, hash: string): Promise<void> {
  const reporter = await loginNewUser(server);
  const reported = await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' });
  expect(reported.status, await reported.clone().text()).toBe(200);
  const queue = (await (await admin.jar.get('/api/admin/reports/gallery')).json()) as {
    data: Array<{ id: number; hash: string }>;
  };
  const report = queue.data.find((row) => row.hash === hash);
  expect(report, 'the report is in the queue').toBeDefined();
  const answer = await admin.jar.post('/api/admin/reports/gallery', {
    id: report!.id,
    action: 'REMOVE',
    reason: 'nsfw',
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/** The edit user page's delete cape or delete ears on a player, by the moderator `admin`. */
export async function removeOnEditUser(admin: LoggedIn, uuid: string, slot: 'cape' | 'ears'): Promise<void> {
  const answer = await admin.jar.post(`/api/admin/user/${slot}/delete`, { uuid });
  expect(answer.status, await answer.clone().text()).toBe(200);
}
