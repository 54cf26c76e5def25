// Who did an audited action, as the audit log names them: a moderator, a player acting on their own account (connecting
// or disconnecting an app), a launcher app (signing itself out), or the system (the sign-in service, the chat bot, the
// operator's command line). The actors that are not players are written here, with the ids their rows carry.
import type { AuditActorKind } from '../../src/lib/audit-labels.ts';
import { isPlayerUuid } from '../../src/lib/ids.ts';
import type { Moderator } from './record.ts';

/** The sign-in service: it ends a connection whose used refresh token came a second time. */
export const SIGN_IN_SERVICE: Moderator = { uuid: 'sign-in-service', username: 'Sign-in service' };

/** The community chat bot: it links chat accounts and gives boosters their rewards. */
export const DISCORD_BOT: Moderator = { uuid: 'discord-bot', username: 'Discord bot' };

/** The operator at the command line (`cloakroom oauth-client add`, `remove`). */
export const OPERATOR_CLI: Moderator = { uuid: 'operator-cli', username: 'Operator (command line)' };

/** What an app's actor id starts with; its client_id follows. */
const APP_ACTOR_PREFIX = 'app:';

/** The actions a player does on their own account, for themselves. */
const PLAYER_ACTIONS: ReadonlySet<string> = new Set(['APP_APPROVE', 'APP_DENY', 'APP_REVOKE']);

/** The actor of an app's own calls (its sign-out). */
export function appActor(client: { clientId: string; name: string }): Moderator {
  return { uuid: `${APP_ACTOR_PREFIX}${client.clientId}`, username: client.name };
}

/** What an audit entry's actor is, from who did it, what they did and to whom. */
export function actorKindOf(entry: { admin_uuid: string; action: string; target_uuid: string | null }): AuditActorKind {
  if (entry.admin_uuid.startsWith(APP_ACTOR_PREFIX)) return 'app';
  if (!isPlayerUuid(entry.admin_uuid)) return 'system';
  // A moderator's own connection of an app is theirs as a player; anything done to someone else is moderation.
  if (entry.admin_uuid === entry.target_uuid && PLAYER_ACTIONS.has(entry.action)) return 'player';
  return 'moderator';
}
