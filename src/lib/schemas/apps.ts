// The schemas of a player's side of apps: looking up, approving and denying an app's sign-in code on /device, and the
// apps connected to the account.
import { z } from 'zod';
import { APP_SCOPE_NAMES } from '../app-scopes';
import { deviceMessages, isUserCode, normalizeUserCode } from '../device-codes';

/** A user code as typed (any case, with or without its dash), checked and normalized to its eight letters. */
const userCodeField = z
  .string({ message: deviceMessages.incomplete })
  .transform(normalizeUserCode)
  .refine(isUserCode, { message: deviceMessages.incomplete })
  .meta({ description: 'The code the app shows (XXXX-XXXX)', example: 'BCDF-GHJK' });

/** A list of scopes. */
const scopesSchema = z.array(z.enum(APP_SCOPE_NAMES));

/** GET /api/device's query: the code the player typed. */
export const deviceCodeQuerySchema = z.object({ code: userCodeField });
/** POST /api/device/approve and /deny: the code the player typed. */
export const deviceCodeBodySchema = z.object({ code: userCodeField });

/** GET /api/device: the sign-in a code names, as the player is asked to approve it. */
export const deviceSignInSchema = z
  .object({
    userCode: z.string().meta({ description: 'The code, as XXXX-XXXX' }),
    appName: z.string(),
    scopes: scopesSchema.meta({ description: 'What the app asks to do' }),
    expiresAt: z.number().int().meta({ description: 'When the code expires (ms since 1970)' }),
  })
  .meta({ id: 'DeviceSignIn' });

/** What approving or denying a sign-in answers: done, the app and the decision. */
export const deviceDecisionSchema = z
  .object({ success: z.literal(true), appName: z.string(), decision: z.enum(['approved', 'denied']) })
  .meta({ id: 'DeviceDecision' });

/** GET /api/device/app: the name of the app a pending code belongs to, for a visitor asked to log in first. */
export const deviceAppSchema = z
  .object({ appName: z.string().meta({ description: 'The name of the app that shows the code' }) })
  .meta({ id: 'DeviceApp' });

/** A connection of an app to the player's account (one app may have several: a launcher on two computers). */
export const connectedAppSchema = z
  .object({
    id: z.number().int().meta({ description: 'The connection, as POST /api/account/apps/revoke takes it' }),
    clientId: z.string().meta({ description: 'The app: connections with the same clientId are of one app' }),
    name: z.string(),
    scopes: scopesSchema.meta({ description: 'What the player approved' }),
    connectedAt: z.number().int().meta({ description: 'When the player approved this connection (ms since 1970)' }),
    lastUsedAt: z
      .number()
      .int()
      .meta({ description: 'When the app last used the tokens of this connection (to the minute; ms since 1970)' }),
  })
  .meta({ id: 'ConnectedApp' });

/** GET /api/account/apps: the connections of apps to the account, newest first. */
export const connectedAppsSchema = z.object({ apps: z.array(connectedAppSchema) }).meta({ id: 'ConnectedApps' });

/** POST /api/account/apps/revoke: the connection to end. */
export const revokeAppBodySchema = z.object({
  id: z.number({ message: 'Choose the app to disconnect.' }).int().positive(),
});

/** What POST /api/account/apps/revoke answers: the app whose connection ended, and how many of its connections remain. */
export const appRevocationSchema = z
  .object({
    success: z.literal(true),
    appName: z.string(),
    remainingConnections: z.number().int().nonnegative().meta({
      description:
        'How many other connections of the same app the player still has (0: the app can no longer use the account)',
    }),
  })
  .meta({ id: 'AppRevocation' });
