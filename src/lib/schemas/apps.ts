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

/** An app connected to the player's account. */
export const connectedAppSchema = z
  .object({
    id: z.number().int().meta({ description: 'The connection, as POST /api/account/apps/revoke takes it' }),
    name: z.string(),
    scopes: scopesSchema.meta({ description: 'What the player approved' }),
    connectedAt: z.number().int(),
    lastUsedAt: z.number().int().meta({ description: 'When the app last used its tokens (to the minute)' }),
  })
  .meta({ id: 'ConnectedApp' });

/** GET /api/account/apps: the apps connected to the account, newest first. */
export const connectedAppsSchema = z.object({ apps: z.array(connectedAppSchema) }).meta({ id: 'ConnectedApps' });

/** POST /api/account/apps/revoke: the connection to end. */
export const revokeAppBodySchema = z.object({
  id: z.number({ message: 'Choose the app to disconnect.' }).int().positive(),
});
