// `cloakroom oauth-client add "NAME"`, `list` and `remove CLIENT_ID`: the apps (launchers, mods) that may sign players
// in with the device flow. Adding one prints the client_id its authors build into the app; removing one ends every
// connection players made with it. Both are audited as the operator's.
import { addAppClient, appClientPage, appNameProblem, removeAppClient } from '../auth/app-clients.ts';
import { OPERATOR_CLI } from '../audit/actors.ts';
import { loadConfig } from '../config/index.ts';
import { formatDateTime } from '../../src/lib/dates.ts';
import { openSiteDatabase } from './site-database.ts';

/** How `cloakroom oauth-client` is called. */
export const APP_CLIENT_USAGE = 'cloakroom oauth-client add "NAME" | list | remove <client_id>';

/** How many apps `list` reads a page. */
const LIST_PAGE = 100;

/** Runs `cloakroom oauth-client …`; resolves to the exit code. */
export async function appClientCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const valid =
    (action === 'add' && rest.length === 1) ||
    (action === 'list' && rest.length === 0) ||
    (action === 'remove' && rest.length === 1);
  if (!valid) {
    console.error(`Usage: ${APP_CLIENT_USAGE}`);
    return 2;
  }
  const name = action === 'add' ? rest[0]!.trim() : '';
  const problem = action === 'add' ? appNameProblem(name) : null;
  if (problem) {
    console.error(problem);
    return 2;
  }
  const db = await openSiteDatabase(loadConfig());
  try {
    if (action === 'add') {
      const client = await addAppClient(db, name, OPERATOR_CLI);
      console.log(`Registered ${client.name}. Its client_id: ${client.clientId}`);
      return 0;
    }
    if (action === 'remove') {
      const removed = await removeAppClient(db, rest[0]!, OPERATOR_CLI);
      if (!removed) {
        console.error(`No app has the client_id ${rest[0]}.`);
        return 1;
      }
      console.log(`Removed ${removed.name}; ${removed.connections} player connection(s) ended.`);
      return 0;
    }
    let shown = 0;
    for (let page = 1; ; page++) {
      const { rows, total } = await appClientPage(db, page, LIST_PAGE);
      if (total === 0) console.log('No app is registered. Add one with: cloakroom oauth-client add "NAME"');
      for (const client of rows)
        console.log(
          `${client.clientId}  ${client.name}  (added ${formatDateTime(client.createdAt)}, ${client.connections} connection(s))`,
        );
      shown += rows.length;
      if (shown >= total || rows.length === 0) return 0;
    }
  } finally {
    await db.destroy();
  }
}
