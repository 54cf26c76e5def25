// The audit log in words: a label for each action code, what each kind of actor is called, the names of the cape
// flags, and the detail of a cape flags change, written by the server and read back by the audit page.

/** What each audited action is called on the audit page, by its code. */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  BAN: 'Banned',
  UNBAN: 'Unbanned',
  CACHE: 'Refreshed the cached profile',
  DELETE: 'Deleted the account',
  CAPE_DELETE: 'Removed the cape',
  EARS_DELETE: 'Removed the ears',
  CAPE_FLAGS: 'Changed the cape flags',
  UNWHITELIST: 'Took off the gallery whitelist',
  REGISTRATION_CODE: 'Gave a login code',
  USER_REPORT_IGNORE: 'Ignored a player report',
  USER_REPORT_REMOVE: 'Removed the reported cape and ears',
  USER_REPORT_BAN: 'Banned from a player report',
  GALLERY_REPORT_IGNORE: 'Ignored a gallery report',
  GALLERY_REPORT_REMOVE: 'Removed a reported gallery texture',
  GALLERY_REPORT_BAN: 'Banned the author of a reported gallery texture',
  GALLERY_REPORT_WHITELIST: 'Marked a reported gallery texture safe',
  GALLERY_DELETE: 'Removed a gallery texture',
  BOT_LINK: 'Linked a chat account (bot)',
  BOT_UNLINK: 'Unlinked a chat account (bot)',
  BOT_BOOSTING: 'Boosting changed (bot)',
  BOT_ROLE: 'Gave the booster role (bot)',
  APP_APPROVE: 'Connected an app to their account',
  APP_DENY: 'Refused to connect an app',
  APP_REVOKE: "Ended an app's connection",
  APP_CLIENT_ADD: 'Registered an app',
  APP_CLIENT_REMOVE: 'Removed an app',
};

/** What each kind of actor the audit log names is called, by its code (server/audit/actors.ts decides the kind). */
export const AUDIT_ACTOR_KINDS = {
  moderator: 'Moderator',
  player: 'Player',
  app: 'Launcher app',
  system: 'System',
} as const;

/** A kind of actor: a moderator, a player on their own account, a launcher app, or the system (services, the CLI). */
export type AuditActorKind = keyof typeof AUDIT_ACTOR_KINDS;

/** The label of an action code (the code itself for one the table does not know). */
export function auditActionLabel(code: string): string {
  return AUDIT_ACTION_LABELS[code] ?? code;
}

/** The cape flags a moderator sets on the edit user page, and their names. */
export const CAPE_FLAG_LABELS = {
  animatedCape: 'Animated cape',
  capeGlint: 'Cape glint',
  upsideDown: 'Upside down',
} as const;

/** A cape flag's key. */
export type CapeFlag = keyof typeof CAPE_FLAG_LABELS;

/** The audit detail of a cape flags change: the flags set, each "<flag> on|off", comma separated. */
export function capeFlagsDetail(flags: Partial<Record<CapeFlag, boolean | undefined>>): string {
  return Object.entries(flags)
    .filter(([, value]) => value !== undefined)
    .map(([flag, value]) => `${flag} ${value ? 'on' : 'off'}`)
    .join(', ');
}

/** An audit row's detail in words: cape flags by name ("Cape glint on"), and "report 12" as "report #12". */
export function readableAuditDetail(detail: string | null): string | null {
  if (!detail) return null;
  return detail
    .replace(
      /\b(animatedCape|capeGlint|upsideDown) (on|off)\b/g,
      (_, flag: CapeFlag, state: string) => `${CAPE_FLAG_LABELS[flag]} ${state}`,
    )
    .replace(/\breport (\d+)\b/g, 'report #$1');
}
