// The admin schemas: the info page, bans, the edit user record and actions, reports, audit, whitelist, registration
// codes and AI logs.
import { z } from 'zod';
import { AUDIT_ACTOR_KINDS, type AuditActorKind } from '../audit-labels';
import { pageSchema } from './common';
import { nameOrUuidFilterField, playerUuidSchema, usernameField } from './ids';

/** A pager link of a paginated admin answer. */
export const pageLinkSchema = z
  .object({ label: z.string(), url: z.string().nullable(), active: z.boolean() })
  .meta({ id: 'PageLink' });
/** A paginated admin answer: one page of rows, the pager and the page shown. */
export function paginatedSchema<T extends z.ZodType>(row: T) {
  return z.object({ data: z.array(row), links: z.array(pageLinkSchema), currentPage: z.number().int().min(1) });
}
/** GET /api/admin/info: the dashboard's totals. */
export const adminInfoSchema = z
  .object({
    totalUsers: z.number().int().nonnegative(),
    totalPremium: z.number().int().nonnegative(),
    totalGallery: z.number().int().nonnegative(),
    totalCapes: z.number().int().nonnegative(),
    totalEars: z.number().int().nonnegative(),
  })
  .meta({ id: 'AdminInfo' });

/** GET /api/admin/banreasons: reason texts by key. */
export const banReasonsSchema = z.record(z.string(), z.string()).meta({ id: 'BanReasons' });

/**
 * A row of GET /api/admin/bans/user (id, player, reporter, reason and moderator, plus the uuid the unban call takes).
 */
export const userBanRowSchema = z
  .object({
    id: z.number().int(),
    uuid: playerUuidSchema,
    username: z.string(),
    reported_by_username: z.string().nullable(),
    reason_text: z.string(),
    banned_by_username: z.string().nullable(),
    createdAt: z.number().int(),
  })
  .meta({ id: 'UserBanRow' });

/** GET /api/admin/bans/user: a page of the ban list. */
export const userBanPageSchema = paginatedSchema(userBanRowSchema);

/** POST /api/admin/user/ban: the player, the ticked confirm box and the reason's key. */
export const adminBanBodySchema = z.object({
  uuid: playerUuidSchema,
  confirm: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], {
    message: 'Tick the confirm box to ban this player.',
  }),
  reason: z.string().min(1, { message: 'Choose a reason.' }),
});

/** POST /api/admin/bans/user/delete: the player to unban. */
export const adminUuidBodySchema = z.object({ uuid: playerUuidSchema });

/** GET /api/admin/user/{username}: the edit user page's record. */
export const adminUserRecordSchema = z
  .object({
    username: z.string(),
    uuid: playerUuidSchema,
    createdAt: z.number().int().nullable(),
    banned: z.boolean(),
    hasCape: z.boolean(),
    hasEars: z.boolean(),
    cape: z.string().nullable().meta({
      description:
        'The still cape the player wears, as a PNG data URL (shown even when the public no longer sees it), or null',
    }),
    ears: z.string().nullable().meta({
      description:
        'The ears the player wears, as a PNG data URL (shown even when the public no longer sees them), or null',
    }),
    profile: z.object({ animatedCape: z.boolean(), capeGlint: z.boolean(), upsideDown: z.boolean() }),
  })
  .meta({ id: 'AdminUserRecord' });

/**
 * POST /api/admin/user/{cape,ears}/delete: done, and how many players lost the picture (the player and everyone wearing
 * the same).
 */
export const adminTextureRemovalSchema = z
  .object({ success: z.literal(true), players: z.number().int().min(0) })
  .meta({ id: 'AdminTextureRemoval' });

/** POST /api/admin/user/delete: the player and the ticked confirm box. */
export const adminDeleteBodySchema = z.object({
  uuid: playerUuidSchema,
  confirm: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], {
    message: 'Tick the confirm box to delete this player.',
  }),
});

/**
 * A report's reason key (from GET /api/admin/banreasons), which a Remove or Ban of it starts from; null when it has
 * none still listed.
 */
const reasonKeySchema = z.string().nullable().meta({
  description:
    "The reporter's reason as a key of GET /api/admin/banreasons (what Remove and Ban start from); null when none is listed",
});

/** What a queued report of either kind says of itself: the reporter's reason and note, and when it was filed. */
const reportGroundsFields = {
  reason: z
    .string()
    .nullable()
    .meta({ description: "The reporter's reason; null on reports filed before reasons existed" }),
  reasonKey: reasonKeySchema,
  note: z.string().nullable().meta({ description: "The reporter's note, if any" }),
  createdAt: z.number().int(),
};

/** A row of GET /api/admin/reports/user: the reported textures as PNG data URLs, or null. */
export const userReportRowSchema = z
  .object({
    id: z.number().int(),
    uuid: playerUuidSchema,
    username: z.string(),
    reported_by_username: z.string(),
    cape: z.string().nullable(),
    ears: z.string().nullable(),
    ...reportGroundsFields,
  })
  .meta({ id: 'UserReportRow' });

/** GET /api/admin/reports/user: the open player reports. */
export const userReportRowsSchema = z.array(userReportRowSchema);

/** POST /api/admin/reports/{user or gallery}: the report, the answer and, for REMOVE and BAN, the reason's key. */
export const reportActionBodySchema = z.object({
  id: z.coerce.number().int().positive(),
  action: z.enum(['IGNORE', 'REMOVE', 'BAN', 'WHITELIST'], { message: 'Choose IGNORE, REMOVE, BAN or WHITELIST.' }),
  reason: z.string().nullish(),
});

/** A row of GET /api/admin/reports/gallery (id, reporter, author and hash, with the item's title). */
export const galleryReportRowSchema = z
  .object({
    id: z.number().int(),
    reported_by_username: z.string(),
    username: z.string(),
    hash: z.string(),
    title: z.string(),
    ...reportGroundsFields,
  })
  .meta({ id: 'GalleryReportRow' });
/** GET /api/admin/reports/gallery: a page of the gallery reports. */
export const galleryReportPageSchema = paginatedSchema(galleryReportRowSchema);

/** A row of GET /api/admin/audit: who did what, to whom or to which texture, why and when. */
export const auditRowSchema = z
  .object({
    id: z.number().int(),
    createdAt: z.number().int(),
    admin_uuid: z.string().meta({
      description:
        "Who did it: a player's uuid, `app:<client_id>` for a launcher app, or a service's id (`sign-in-service`, `discord-bot`, `operator-cli`)",
    }),
    admin_name: z.string().meta({ description: 'Their name at the time' }),
    actor_kind: z.enum(Object.keys(AUDIT_ACTOR_KINDS) as [AuditActorKind, ...AuditActorKind[]]).meta({
      description:
        'What they are: `moderator`, `player` (on their own account: connecting or disconnecting an app), `app` (a launcher app signing itself out) or `system` (a service of the site, the command line)',
    }),
    action: z.string(),
    target_uuid: z.string().nullable(),
    target_name: z.string().nullable(),
    target_hash: z.string().nullable(),
    reason: z.string().nullable(),
    detail: z.string().nullable().meta({
      description: 'What changed, as recorded (flags set, the report answered, how many players lost a picture)',
    }),
    thumbnail: z.string().nullable().meta({
      description: 'A small picture of the texture the action was about (PNG data URL), kept after the texture is gone',
    }),
  })
  .meta({ id: 'AuditRow' });
/** GET /api/admin/audit: a page of the audit log. */
export const auditPageSchema = paginatedSchema(auditRowSchema);

/** A row of GET /api/admin/gallery/whitelist (hash and author name, with the item's title). */
export const whitelistRowSchema = z
  .object({ hash: z.string(), title: z.string(), author_name: z.string(), author_uuid: z.string() })
  .meta({ id: 'WhitelistRow' });
/** GET /api/admin/gallery/whitelist: a page of the gallery whitelist. */
export const whitelistPageSchema = paginatedSchema(whitelistRowSchema);

/** POST /api/admin/registration/generate: the player's name (letters, digits and underscores, at most 16). */
export const registrationBodySchema = z.object({
  username: usernameField('A username is 1 to 16 letters, digits or underscores.', 'Enter a username.'),
});
/** What POST /api/admin/registration/generate answers: the player's one-time login code. */
export const registrationCodeSchema = z
  .object({
    success: z.literal(true),
    code: z.string(),
    username: z.string(),
    uuid: playerUuidSchema,
    expiresInMinutes: z.number().int(),
  })
  .meta({ id: 'RegistrationCode' });

/** A row of GET /api/admin/ai-cape-logs: the image is at /api/admin/ai-cape-logs/{id}. */
export const aiCapeLogRowSchema = z
  .object({
    id: z.number().int(),
    created_at: z.number().int(),
    request_head: z.string(),
    username: z.string().nullable(),
    hasImage: z.boolean(),
  })
  .meta({ id: 'AiCapeLogRow' });
/** What GET /api/admin/ai-cape-logs answers: the page's logs and the counts the pager needs. */
export const aiCapeLogPageSchema = z
  .object({
    logs: z.array(aiCapeLogRowSchema),
    pages: z.object({
      total_count: z.number().int().nonnegative(),
      per_page: z.number().int().positive(),
      current_page: z.number().int().min(1),
    }),
  })
  .meta({ id: 'AiCapeLogPage' });

/** POST /api/admin/user/profile: the cape flags a moderator sets on a player who has a cape (each optional). */
export const adminProfileFlagsBodySchema = z.object({
  uuid: playerUuidSchema,
  animatedCape: z.boolean().optional(),
  capeGlint: z.boolean().optional(),
  upsideDown: z.boolean().optional(),
});

/**
 * The audit log's "By" filter: a uuid, or the name of whoever did the actions as the log shows it (a moderator, a
 * player, an app or a service, so spaces too; at most 40 characters, an app name's limit).
 */
const actorFilterField = z
  .string()
  .trim()
  .min(1, { message: 'Say whose actions to show: a name or a uuid.' })
  .max(40, { message: 'A name has at most 40 characters.' })
  .refine((text) => [...text].every((char) => char >= ' ' && char !== '\u007f'), {
    message: 'A name cannot hold control characters.',
  });

/** GET /api/admin/audit's query: the page, and optionally who acted (a name or a uuid) and a player (the same). */
export const auditQuerySchema = z.object({
  page: pageSchema,
  admin: actorFilterField.optional(),
  player: nameOrUuidFilterField('A player is a name or a uuid.').optional(),
});

/** A row of GET /api/admin/oauth-clients: a registered app and how many players' connections it has. */
export const appClientRowSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    createdAt: z.number().int(),
    connections: z.number().int().nonnegative(),
  })
  .meta({ id: 'AppClientRow' });
/** GET /api/admin/oauth-clients: a page of the registered apps. */
export const appClientPageSchema = paginatedSchema(appClientRowSchema);
/** POST /api/admin/oauth-clients/delete: the app to remove. */
export const appClientBodySchema = z.object({ clientId: z.string().min(1, { message: 'Choose the app to remove.' }) });
/** What removing an app answers: done, and how many connections ended with it. */
export const appClientRemovalSchema = z
  .object({ success: z.literal(true), connections: z.number().int().nonnegative() })
  .meta({ id: 'AppClientRemoval' });
