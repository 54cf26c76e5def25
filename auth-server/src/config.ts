// The auth server's settings, read from the environment, with defaults that work beside a site on the same machine.

/** The auth server's settings. */
export interface AuthServerConfig {
  /** The address to listen on (AUTH_SERVER_HOST). */
  host: string;
  /** The port to listen on (AUTH_SERVER_PORT); 0 picks a free one. */
  port: number;
  /** Whether players are checked with Mojang's session server, so a player is who Mojang says (AUTH_SERVER_ONLINE_MODE). */
  onlineMode: boolean;
  /** The site's base URL, without a trailing slash (AUTH_API_URL). */
  apiUrl: string;
  /** The bearer key the site expects on /api/internal/auth (AUTH_API_KEY, the same value as the site's). */
  apiKey: string;
  /** How long to wait for the site's answer before telling the player to try again (AUTH_API_TIMEOUT_MS). */
  apiTimeoutMs: number;
  /** The text of the server list entry: the site's name (AUTH_SERVER_MOTD). */
  motd: string;
  /** The most players the server list shows (AUTH_SERVER_MAX_PLAYERS). */
  maxPlayers: number;
  /** One game version to accept (AUTH_SERVER_VERSION), or false for every version minecraft-protocol supports. */
  version: string | false;
}

/** A setting in the environment is missing or malformed; the message names the variable and says what it takes. */
export class ConfigError extends Error {
  name = 'ConfigError';
}

type Environment = Record<string, string | undefined>;

/** A variable's value with surrounding spaces removed, or undefined when it is unset or blank. */
function valueOf(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Reads a whole number within bounds, or the default when the variable is unset. */
function readInteger(env: Environment, name: string, fallback: number, min: number, max: number): number {
  const text = valueOf(env, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; it is "${text}".`);
  return value;
}

/** Reads true/false (also 1/0, yes/no, on/off), or the default when the variable is unset. */
function readBoolean(env: Environment, name: string, fallback: boolean): boolean {
  const text = valueOf(env, name)?.toLowerCase();
  if (text === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  throw new ConfigError(`${name} must be true or false; it is "${text}".`);
}

/** Reads an http(s) URL and drops its trailing slashes, or the default when the variable is unset. */
function readBaseUrl(env: Environment, name: string, fallback: string): string {
  const text = valueOf(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be the site's base URL, such as https://cloakroom.example; it is "${text}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http or https URL; it is "${text}".`);
  return text.replace(/\/+$/, '');
}

/** Reads the game version setting: unset, "any" or "false" accept every supported version. */
function readVersion(env: Environment, name: string): string | false {
  const text = valueOf(env, name);
  if (text === undefined || ['any', 'false'].includes(text.toLowerCase())) return false;
  if (!/^[0-9][0-9a-z.-]*$/i.test(text))
    throw new ConfigError(`${name} must be a game version such as 1.20.4, or "any"; it is "${text}".`);
  return text;
}

/** Reads the auth server's settings from an environment (process.env by default); throws a ConfigError naming the variable at fault. */
export function readAuthServerConfig(env: Environment = process.env): AuthServerConfig {
  const apiKey = valueOf(env, 'AUTH_API_KEY');
  if (apiKey === undefined) {
    throw new ConfigError(
      'AUTH_API_KEY is not set. Give the auth server the same AUTH_API_KEY as the site, so the site accepts its calls to /api/internal/auth.',
    );
  }
  return {
    host: valueOf(env, 'AUTH_SERVER_HOST') ?? '0.0.0.0',
    port: readInteger(env, 'AUTH_SERVER_PORT', 25565, 0, 65535),
    onlineMode: readBoolean(env, 'AUTH_SERVER_ONLINE_MODE', true),
    apiUrl: readBaseUrl(env, 'AUTH_API_URL', 'http://localhost:4321'),
    apiKey,
    apiTimeoutMs: readInteger(env, 'AUTH_API_TIMEOUT_MS', 5000, 100, 60_000),
    motd: valueOf(env, 'AUTH_SERVER_MOTD') ?? 'Cloakroom',
    maxPlayers: readInteger(env, 'AUTH_SERVER_MAX_PLAYERS', 100, 0, 1_000_000),
    version: readVersion(env, 'AUTH_SERVER_VERSION'),
  };
}
