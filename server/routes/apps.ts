// A player's side of apps (launchers, mods): the /device page's calls, which look up the sign-in a code names and
// approve or deny it, and the apps connected to the account, each of which the player can disconnect.
import type { FastifyInstance } from 'fastify';
import { deviceMessages } from '../../src/lib/device-codes.ts';
import {
  connectedAppsSchema,
  deviceCodeBodySchema,
  deviceCodeQuerySchema,
  deviceDecisionSchema,
  deviceSignInSchema,
  revokeAppBodySchema,
} from '../../src/lib/schemas/apps.ts';
import { successSchema } from '../../src/lib/schemas/common.ts';
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

/** Registers GET /api/device, POST /api/device/approve and /deny, GET /api/account/apps and its revoke. */
export async function appRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  // Every call that takes a code counts against the player's code entries, so codes cannot be guessed.
  const codeEntries = {
    auth: 'session' as const,
    rateLimit: perUserRateLimit(
      'device-code',
      options.config.deviceFlow.codeEntriesPerMinute,
      60_000,
      deviceMessages.tooManyTries,
    ),
  };

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
        summary: "The apps connected to the player's account, newest first",
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
        summary: 'Disconnect an app: its tokens stop working at once',
        body: revokeAppBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const player = await requireUser(request);
      if ((await disconnectApp(db, player, request.body.id)) === null)
        throw new HttpError(404, 'That app is not connected to your account.');
      return { success: true as const };
    },
  );
}
