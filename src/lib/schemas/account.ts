// The account schemas: the current user, the code and Microsoft logins, and account deletion.
import { z } from 'zod';
import { playerUuidSchema } from './ids';

/** A user's group: its name, emoji and admin flag. */
export const groupSchema = z.object({ name: z.string(), emoji: z.string(), admin: z.boolean() }).meta({ id: 'Group' });
/** The premium features a user owns (null when none). */
export const premiumSchema = z
  .object({ animated: z.boolean(), glint: z.boolean(), dinnerbone: z.boolean(), boost_only: z.boolean() })
  .meta({ id: 'Premium' });
/** The current user, as `GET /api/user` answers it and local storage keeps it. */
export const userSchema = z
  .object({ uuid: playerUuidSchema, username: z.string(), group: groupSchema, premium: premiumSchema.nullable() })
  .meta({ id: 'User' });
/** A footer contributor. */
export const contributorSchema = z
  .object({ uuid: playerUuidSchema, username: z.string().min(1) })
  .meta({ id: 'Contributor' });
/** GET /api/contributors: the footer's contributors. */
export const contributorsSchema = z.array(contributorSchema);
/** The XSRF token the API set or found in its cookie, for a page that cannot read the API's cookies. */
export const xsrfTokenSchema = z.object({ token: z.string() }).meta({ id: 'XsrfToken' });

/** The home page's statistics. */
export const homeStatsSchema = z.object({ users: z.number().int().nonnegative() }).meta({ id: 'HomeStats' });

/**
 * POST /api/account/checkauth: the 6-digit code (checked by the handler: a wrong one is `success: false`) and where to
 * go next.
 */
export const checkAuthBodySchema = z.object({
  code: z.unknown().meta({ description: 'The 6-digit code', example: '123456' }),
  ref: z.unknown().optional().meta({ description: 'The site path to go to after the login', example: '/upload-cape' }),
});
/** What the code login answers: the user and the safe `ref`, or the wrong-code message. */
export const checkAuthResultSchema = z.union([
  z.object({
    success: z.literal(true),
    user: userSchema,
    ref: z.string(),
    firstLogin: z.boolean().meta({ description: "Whether this was the account's first login" }),
  }),
  z.object({ success: z.literal(false), msg: z.string() }),
]);
/** GET /api/account/oauth/redirect's query: where to go after the login. */
export const oauthRedirectQuerySchema = z.object({
  ref: z.string().optional().meta({ description: 'The site path to return to after the login' }),
});
/**
 * POST /api/account/oauth/callback: what the Microsoft sign-in page sent back to the login page (checked by the
 * handler).
 */
export const oauthCallbackBodySchema = z.object({
  code: z
    .unknown()
    .optional()
    .meta({ description: 'The authorization code from the login page address', example: 'M.C545_BAY.2.U.0f4c…' }),
  state: z.unknown().optional().meta({ description: 'The state from the login page address' }),
});
/** What a finished Microsoft login answers: the user and where to go next. */
export const oauthCallbackResultSchema = z
  .object({
    user: userSchema,
    ref: z.string(),
    firstLogin: z.boolean().meta({ description: "Whether this was the account's first login" }),
  })
  .meta({ id: 'MicrosoftLogin' });
/** A Microsoft login that failed: the message, and the same message under `errors` for the login page's error box. */
export const loginFailureSchema = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'LoginFailure', description: 'Why the login failed: the message, and the list the login page shows' });
/** POST /api/account/delete: the ticked confirmation. */
export const deleteAccountBodySchema = z.object({
  confirm: z.union([z.literal(true), z.literal('true'), z.literal('1'), z.literal(1), z.literal('on')], {
    message: 'Tick the box to confirm that you want to delete your account.',
  }),
});
