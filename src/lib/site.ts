// Public site settings, read from PUBLIC_* variables at build time with working defaults.

import { DEFAULT_AD_SCRIPT_URL } from './ads';

const env = import.meta.env as Record<string, string | undefined>;

function setting(name: string, fallback: string): string {
  const value = env[name];
  return value !== undefined && value !== '' ? value : fallback;
}

/**
 * The public settings every page may use; the community's own services (auth and game servers, Discord, support
 * address) are empty until set, and an empty one hides what depends on it.
 */
export const site = {
  name: setting('PUBLIC_SITE_NAME', 'Cloakroom'),
  authServerHost: setting('PUBLIC_AUTH_SERVER_HOST', ''),
  gameServerHost: setting('PUBLIC_GAME_SERVER_HOST', ''),
  discordUrl: setting('PUBLIC_DISCORD_URL', ''),
  downloadUrl: setting('PUBLIC_DOWNLOAD_URL', 'https://modrinth.com/mod/cloakroom'),
  avatarUrl: setting('PUBLIC_AVATAR_URL', 'https://crafatar.com/avatars/{uuid}?size={size}&overlay'),
  tutorialVideoId: setting('PUBLIC_TUTORIAL_VIDEO_ID', ''),
  supportEmail: setting('PUBLIC_SUPPORT_EMAIL', ''),
  adClient: setting('PUBLIC_AD_CLIENT', ''),
  adScriptUrl: setting('PUBLIC_AD_SCRIPT_URL', DEFAULT_AD_SCRIPT_URL),
};

/**
 * Whether visitors have a way to reach the site's people: a community chat or a support address (the help page's
 * contact answer).
 */
export const siteHasContact = Boolean(site.discordUrl || site.supportEmail);

/** The avatar image URL for a player: the template's {uuid} and {size} filled in (size 24 by default). */
export function avatarUrl(template: string, uuid: string, size = 24): string {
  return template.replaceAll('{uuid}', uuid).replaceAll('{size}', String(size));
}
