// The settings of logins, accounts, apps signed in with a code and the bearer-key APIs: each one's parser, default and
// description.
import { z } from 'zod';
import { flag, uuidList } from './parsers.ts';
import { settingsOf } from './setting.ts';

/** The settings of logins, accounts, apps signed in with a code and the bearer-key APIs. */
export const ACCOUNT_SETTINGS = {
  ...settingsOf('Logins and accounts', {
    CONTRIBUTORS: {
      schema: uuidList,
      default: 'empty',
      description:
        "the footer's contributors: comma-separated player uuids, in order; each shows with its current name and links to its profile once the player is registered here (`GET /api/contributors`); empty lists none",
    },
    MOJANG_API_URL: {
      schema: z.string().url().default('https://api.mojang.com'),
      description: 'Mojang profile API base URL (username → uuid)',
    },
    OFFLINE_MODE: {
      schema: flag,
      default: '`false`',
      description:
        '`true`: use offline-mode uuids (`OfflinePlayer:<name>`, version 3), fetch nothing. For trying the site only: ' +
        'the mod asks only for Mojang (version 4) uuids, so it never finds these players',
    },
    SESSION_DAYS: { schema: z.coerce.number().positive().default(30), description: 'session lifetime in days' },
    LOGIN_ATTEMPTS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(10),
      description: 'code login attempts per client address per minute (then 429)',
    },
    LOGIN_FAILURES_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(30),
      description:
        'wrong login codes per minute from all clients together; once spent, every code login waits for the next minute (429)',
    },
    MICROSOFT_CLIENT_ID: {
      schema: z.string().optional(),
      description:
        "the Microsoft login's app (client) id (see [operations](operations.md#microsoft-login)); until set, the login button goes back to the " +
        'login page, which says it is not configured',
    },
    MICROSOFT_CLIENT_SECRET: {
      schema: z.string().optional(),
      description:
        "the app's client secret (sent to the token endpoint, never to the browser); unset: a public client, PKCE alone",
    },
    MICROSOFT_AUTHORITY_URL: {
      schema: z.string().url().default('https://login.microsoftonline.com/consumers'),
      description:
        'Microsoft identity platform authority (`/oauth2/v2.0/authorize`, `/oauth2/v2.0/token` below it; no discovery call); ' +
        "the redirect URI is the site's `/account/login`",
    },
    XBL_AUTH_URL: {
      schema: z.string().url().default('https://user.auth.xboxlive.com'),
      description: 'Xbox Live user authentication base URL (`POST /user/authenticate`)',
    },
    XSTS_AUTH_URL: {
      schema: z.string().url().default('https://xsts.auth.xboxlive.com'),
      description: 'Xbox security token service base URL (`POST /xsts/authorize`)',
    },
    MINECRAFT_SERVICES_URL: {
      schema: z.string().url().default('https://api.minecraftservices.com'),
      description: 'game services base URL (`POST /authentication/login_with_xbox`, `GET /minecraft/profile`)',
    },
  }),
  ...settingsOf('Apps signed in with a code (device flow)', {
    OAUTH_DEVICE_CODE_SECONDS: {
      schema: z.coerce.number().int().min(1).default(600),
      description:
        "how long an app's sign-in code stays valid: the player enters it on `/device` and the app polls for its tokens within this time (`expires_in`)",
    },
    OAUTH_POLL_INTERVAL_SECONDS: {
      schema: z.coerce.number().int().min(1).default(5),
      description:
        'the least time between two polls of one code (`interval`); a faster poll is answered `slow_down` and adds 5 seconds to it',
    },
    OAUTH_ACCESS_TOKEN_SECONDS: {
      schema: z.coerce.number().int().min(1).default(3600),
      description: "an app's access token lifetime (`expires_in`); the app gets a new one with its refresh token",
    },
    OAUTH_REFRESH_TOKEN_DAYS: {
      schema: z.coerce.number().positive().default(90),
      description:
        'how long a refresh token stays usable; each use hands out a new one for as long again, so an app used within this time stays connected',
    },
    OAUTH_DEVICE_REQUESTS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(10),
      description:
        'sign-in codes one client address may ask for a minute (`POST /oauth/device_authorization`; then 429)',
    },
    OAUTH_CODE_ENTRIES_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(10),
      description:
        'codes one player (a visitor: one address) may look up, approve or deny a minute on `/device`, each call counted apart (then 429), so codes cannot be guessed',
    },
  }),
  ...settingsOf('Bot and game auth server keys', {
    AUTH_API_KEY: {
      schema: z.string().optional(),
      description: 'bearer key of the game auth server for `/api/internal/*`; unset refuses every call',
    },
    DISCORD_BOT_KEY: {
      schema: z.string().optional(),
      description: "bearer key of the chat-community bot's API (`/api/bot/*`); unset refuses every bot call",
    },
    BOT_CALLS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(600),
      description:
        "bot API calls with the bot's key a minute, all together (then 429); the key is checked before a call is counted",
    },
    API_KEY_REFUSALS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(30),
      description:
        "calls a minute from one address to the bot's and the game auth server's APIs without a valid key (401, then 429); counted apart from the bot's calls",
    },
  }),
};
