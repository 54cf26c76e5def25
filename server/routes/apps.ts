// A player's side of apps (launchers, mods): the /device page's calls, which look up the sign-in a code names and
// approve or deny it (and, for a visitor asked to log in first, name the app), and the connections of apps to the
// account, each of which the player can end.
import type { FastifyInstance } from 'fastify';
import { deviceMessages } from '../../src/lib/device-codes.ts';
import {
  appRevocationSchema,
  connectedAppsSchema,
  deviceAppSchema,
  deviceCodeBodySchema,
  deviceCodeQuerySchema,
  deviceDecisionSchema,
  deviceSignInSchema,
  revokeAppBodySchema,
} from '../../src/lib/schemas/apps.ts';
import { connectedApps, disconnectApp } from '../auth/app-grants.ts';
import {
  decideDeviceRequest,
  deviceRequestFor,
  type DeviceRequestRefusal,
  type DeviceRequestView,
} from '../auth/device-requests.ts';
import { requireUser } from '../auth/plugin.ts';
import { HttpError } from '../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { perUserRateLimit } from '../http/user-rate-limit.ts';
import type { AppContext } from '../operations/app-context.ts';

/** The answer to a code that leads nowhere: unknown (404), expired (410), already decided (409). */
const REFUSALS: Record<DeviceRequestRefusal, { status: number; message: string }> = {
  wrong: { status: 404, message: deviceMessages.wrongCode },
  expired: { status: 410, message: deviceMessages.expired },
  used: { status: 409, message: deviceMessages.used },
};

/** The sign-in, or the refusal of a code that leads nowhere thrown as its answer. */
function signInOrRefuse(found: DeviceRequestView | DeviceRequestRefusal): DeviceRequestView {
  if (typeof found !== 'string') return found;
  throw new HttpError(REFUSALS[found].status, REFUSALS[found].message);
}

/**
 * Registers GET /api/device, GET /api/device/app, POST /api/device/approve and /deny, GET /api/account/apps and its
 * revoke.
 */
export async function appRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  // Every call that takes a code counts against the player's code entries (a visitor's: their address's), so codes
  // cannot be guessed.
  const codeEntryLimit = perUserRateLimit(
    'device-code',
    options.config.deviceFlow.codeEntriesPerMinute,
    60_000,
    deviceMessages.tooManyTries,
  );
  const codeEntries = { auth: 'session' as const, rateLimit: codeEntryLimit };

  app.get(
    '/api/device',
    {
      config: codeEntries,
      schema: {
        summary: "The sign-in an app's code names: the app and what it asks to do, before the player decides",
        querystring: deviceCodeQuerySchema,
        response: { 200: deviceSignInSchema, ...errorResponses },
      },
    },
    async (request) => signInOrRefuse(await deviceRequestFor(db, request.query.code)),
  );

  app.get(
    '/api/device/app',
    {
      config: { rateLimit: codeEntryLimit },
      schema: {
        summary: 'The name of the app a pending code belongs to, for a visitor the /device page asks to log in first',
        description:
          'Open to visitors; counts against the code entries of the address (`OAUTH_CODE_ENTRIES_PER_MINUTE`). A code that is ' +
          'unknown, expired or already decided answers 404 with a sentence saying which.',
        querystring: deviceCodeQuerySchema,
        response: { 200: deviceAppSchema, ...errorResponses },
      },
    },
    async (request) => {
      const found = await deviceRequestFor(db, request.query.code);
      if (typeof found === 'string') throw new HttpError(404, REFUSALS[found].message);
      return { appName: found.appName };
    },
  );

  for (const decision of ['approved', 'denied'] as const) {
    app.post(
      decision === 'approved' ? '/api/device/approve' : '/api/device/deny',
      {
        config: codeEntries,
        schema: {
          summary:
            decision === 'approved'
              ? 'Approve the sign-in a code names: the app is connected with the scopes it asked for'
              : 'Deny the sign-in a code names: the app is told so and gets nothing',
          body: deviceCodeBodySchema,
          response: { 200: deviceDecisionSchema, ...errorResponses },
        },
      },
      async (request) => {
        const player = await requireUser(request);
        const signIn = signInOrRefuse(await decideDeviceRequest(db, request.body.code, player, decision));
        return { success: true as const, appName: signIn.appName, decision };
      },
    );
  }

  app.get(
    '/api/account/apps',
    {
      config: { auth: 'session' },
      schema: {
        summary:
          "The connections of apps to the player's account, newest first (an app connected twice is listed twice)",
        response: { 200: connectedAppsSchema, ...errorResponses },
      },
    },
    async (request) => ({ apps: await connectedApps(db, (await requireUser(request)).uuid) }),
  );

  app.post(
    '/api/account/apps/revoke',
    {
      config: { auth: 'session' },
      schema: {
        summary:
          "End one connection of an app: its tokens stop working at once, the app's other connections keep working",
        description:
          "Answers the app's name and `remainingConnections`, how many other connections of the same app the player still " +
          'has: 0 means the app can no longer use the account.',
        body: revokeAppBodySchema,
        response: { 200: appRevocationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const player = await requireUser(request);
      const ended = await disconnectApp(db, player, request.body.id);
      if (ended === null) throw new HttpError(404, 'That app is not connected to your account.');
      return { success: true as const, ...ended };
    },
  );
}
