// The apps registered to sign players in with the device flow: public clients (a launcher or a mod cannot keep a
// secret), each a random client_id and the name players see when they approve it. Adding and removing one is audited;
// removing one ends every connection players made with it.
import { randomBytes } from 'node:crypto';
import { isAppClientId } from '../../src/lib/ids.ts';
import { countOf } from '../../src/lib/plural.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import type { Db } from '../db/database.ts';
import { rowsPage, type RowsPage } from '../db/rows-page.ts';

/** The longest name an app may have. */
export const APP_NAME_MAX = 40;

/** A registered app. */
export interface AppClient {
  clientId: string;
  name: string;
  createdAt: number;
}

/** A registered app and how many connections players have made with it. */
export interface AppClientRow extends AppClient {
  connections: number;
}

/** What is wrong with an app's name (already trimmed), or null when nothing is. */
export function appNameProblem(name: string): string | null {
  if (name.length === 0) return 'Give the app a name: players see it when they approve it.';
  if (name.length > APP_NAME_MAX) return `An app's name has at most ${APP_NAME_MAX} characters.`;
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f'))
    return "An app's name cannot hold control characters.";
  return null;
}

/** Registers an app (audited); its name must have passed appNameProblem. */
export async function addAppClient(db: Db, name: string, by: Moderator, now = Date.now()): Promise<AppClient> {
  const client = { clientId: randomBytes(16).toString('base64url'), name, createdAt: now };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('oauth_clients').values({ client_id: client.clientId, name, created_at: now }).execute();
    await recordAdminAction(trx, by, { action: 'APP_CLIENT_ADD', detail: `${name} (${client.clientId})` }, now);
  });
  return client;
}

/** A registered app by its client_id, or undefined (also for text that is no client_id, unread). */
export async function findAppClient(db: Db, clientId: string): Promise<AppClient | undefined> {
  if (!isAppClientId(clientId)) return undefined;
  const row = await db
    .selectFrom('oauth_clients')
    .select(['client_id', 'name', 'created_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row && { clientId: row.client_id, name: row.name, createdAt: Number(row.created_at) };
}

/** One page of the registered apps, newest first, each with its number of connections, and how many there are. */
export async function appClientPage(db: Db, page: number, perPage: number): Promise<RowsPage<AppClientRow>> {
  const { rows, total } = await rowsPage(
    db.selectFrom('oauth_clients'),
    (clients) =>
      clients
        .select(['client_id', 'name', 'created_at'])
        .select((eb) =>
          eb
            .selectFrom('oauth_grants')
            .select(eb.fn.countAll().as('n'))
            .whereRef('oauth_grants.client_id', '=', 'oauth_clients.client_id')
            .as('connections'),
        )
        .orderBy('created_at', 'desc')
        .orderBy('client_id'),
    page,
    perPage,
  );
  return {
    rows: rows.map((row) => ({
      clientId: row.client_id,
      name: row.name,
      createdAt: Number(row.created_at),
      connections: Number(row.connections ?? 0),
    })),
    total,
  };
}

/**
 * Removes an app and every connection players made with it (audited with how many there were); null for an unknown
 * client_id (or text that is none).
 */
export async function removeAppClient(
  db: Db,
  clientId: string,
  by: Moderator,
  now = Date.now(),
): Promise<{ name: string; connections: number } | null> {
  if (!isAppClientId(clientId)) return null;
  return db.transaction().execute(async (trx) => {
    const client = await trx
      .selectFrom('oauth_clients')
      .select('name')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!client) return null;
    const ended = await trx.deleteFrom('oauth_grants').where('client_id', '=', clientId).executeTakeFirst();
    const connections = Number(ended.numDeletedRows);
    await trx.deleteFrom('oauth_clients').where('client_id', '=', clientId).execute();
    const detail = `${client.name} (${clientId}); ${countOf(connections, 'connection')} ended`;
    await recordAdminAction(trx, by, { action: 'APP_CLIENT_REMOVE', detail }, now);
    return { name: client.name, connections };
  });
}
