// The API's request and response shapes (SPEC §3, §7) as zod schemas: the server validates and documents its routes with them,
// and the islands take their types from them (type-only imports, so no zod reaches the browser).
import { z } from 'zod';
import { DEFAULT_GALLERY_SORT, GALLERY_SORTS, GALLERY_TYPES, galleryMessages, type GalleryTypeName } from './gallery-rules';
import { isBanReason } from './ban-reasons';
import { REPORT_NOTE_MAX, reportMessages } from './report-rules';
import { GALLERY_TAG_KEY_PATTERN, GALLERY_TAGS_MAX, uniqueValues } from './gallery-query';

// ---- Common ----

/** A player uuid: 32 lowercase hex digits, no dashes. */
const playerUuidSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/)
  .meta({ description: 'Player uuid: 32 lowercase hex digits, no dashes', example: '069a79f444e94726a5befca90e38aaf5' });
/** A gallery tag's key (`pixel-art`). */
const tagKeySchema = z.string().regex(GALLERY_TAG_KEY_PATTERN, { message: galleryMessages.unknownTag });
/** A texture's SHA-256, the key of every stored texture. */
export const textureHashSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: 'That texture does not exist.' })
  .meta({ description: 'SHA-256 of the stored PNG (64 lowercase hex digits)' });

/** A refusal with one message (`{error}`), the usual error body. */
export const errorBodySchema = z.object({ error: z.string() }).meta({ id: 'Error', description: 'A refusal with one message' });
/** A Laravel-style validation refusal: the first message, and every message by field. */
const validationErrorBodySchema = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError', description: 'Field errors (422): the first message, and the messages of each field' });
/** Any error body the API sends. */
export const anyErrorBodySchema = z
  .union([errorBodySchema, validationErrorBodySchema])
  .meta({ description: 'Refused: `{error}`, or field errors for invalid input (422)' });
/** `{success: true}`, the answer of calls that only act. */
export const successSchema = z.object({ success: z.literal(true) });

/** A report's reason (a ban reason key) and optional note (trimmed; empty is none), as the report forms send them. */
const reportReasonFields = {
  reason: z.string({ message: reportMessages.missingReason }).refine(isBanReason, { message: reportMessages.unknownReason }),
  note: z
    .string()
    .trim()
    .max(REPORT_NOTE_MAX, { message: reportMessages.noteTooLong })
    .nullish()
    .transform((note) => note || null),
};

// ---- Users ----

/** A user's group: its name, emoji and admin flag. */
export const groupSchema = z.object({ name: z.string(), emoji: z.string(), admin: z.boolean() }).meta({ id: 'Group' });
/** The premium features a user owns (null when none). */
export const premiumSchema = z.object({ animated: z.boolean(), glint: z.boolean(), dinnerbone: z.boolean(), boost_only: z.boolean() }).meta({ id: 'Premium' });
/** The current user, as `GET /api/user` answers it and local storage keeps it. */
export const userSchema = z
  .object({ uuid: playerUuidSchema, username: z.string(), group: groupSchema, premium: premiumSchema.nullable() })
  .meta({ id: 'User' });
/** A footer contributor. */
export const contributorSchema = z.object({ uuid: playerUuidSchema, username: z.string().min(1) }).meta({ id: 'Contributor' });
/** The home page's statistics. */
export const homeStatsSchema = z.object({ users: z.number().int().nonnegative() }).meta({ id: 'HomeStats' });

/** POST /api/account/checkauth: the 6-digit code (checked by the handler: a wrong one is `success: false`) and where to go next. */
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
/** POST /api/account/oauth/callback: what the Microsoft sign-in page sent back to the login page (checked by the handler). */
export const oauthCallbackBodySchema = z.object({
  code: z.unknown().optional().meta({ description: 'The authorization code from the login page address', example: 'M.C545_BAY.2.U.0f4c…' }),
  state: z.unknown().optional().meta({ description: 'The state from the login page address' }),
});
/** What a finished Microsoft login answers: the user and where to go next. */
export const oauthCallbackResultSchema = z
  .object({ user: userSchema, ref: z.string(), firstLogin: z.boolean().meta({ description: "Whether this was the account's first login" }) })
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

// ---- Uploads ----

/** What was changed to make an upload fit (an animation scaled down or cut), when anything was. */
export const uploadNoticeSchema = z
  .string()
  .optional()
  .meta({ description: 'What was changed to make the upload fit (an animation scaled down or cut), when anything was' });
/** What a cape or ears upload or removal answers (SPEC §3 Upload response). */
export const uploadResultSchema = z.union([
  z.object({ success: z.literal(true), cape: z.string().nullable(), notice: uploadNoticeSchema }),
  z.object({ success: z.literal(true), ears: z.string().nullable(), notice: uploadNoticeSchema }),
]);
/** An upload the texture rules refused: `success: false` and the SPEC §5 message. */
export const uploadRefusalSchema = z.object({ success: z.literal(false), msg: z.string() }).meta({ id: 'UploadRefusal' });

// ---- Gallery ----

/** A gallery tag. */
export const tagSchema = z.object({ tag_key: z.string(), name: z.string() }).meta({ id: 'Tag' });
/** One gallery item (SPEC §3). */
export const galleryItemSchema = z
  .object({
    hash: z.string(),
    title: z.string(),
    author: z.string().meta({ description: "The author's uuid" }),
    author_name: z.string(),
    type: z.number().int().meta({ description: '0 cape, 1 ears, 2 animated cape' }),
    animated: z.boolean(),
    texture: z.string().meta({ description: 'The texture PNG, relative to the API host: the still image, or for an animated cape its strip' }),
    animated_texture: z.string().nullable().meta({ description: 'The animated strip (frames of width x width/2 stacked vertically, 100 ms each), or null' }),
    tags: z.array(tagSchema),
    whitelisted: z.boolean(),
    user_liked: z.boolean(),
    total_user_likes: z.number().int(),
    downloads: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'GalleryItem' });
/** One page of gallery items. */
export const galleryPageSchema = z
  .object({
    data: z.array(galleryItemSchema),
    total: z.number().int().meta({ description: 'How many items match; when total_capped, at least this many (a search counts up to 1,000)' }),
    total_capped: z.boolean(),
    per_page: z.number().int(),
    current_page: z.number().int(),
  })
  .meta({ id: 'GalleryPage' });
/** What GET /api/gallery/user/{uuid} answers: the player and a page of their uploads. */
export const userGallerySchema = z
  .object({ user: z.object({ username: z.string(), uuid: z.string() }), gallery: galleryPageSchema })
  .meta({ id: 'UserGallery' });

/** A query parameter that carries a list as JSON text (`["cape","ears"]`); empty is no list. */
function jsonListParam<T extends z.ZodType>(item: T, max: number, message: string, description: string, example: string) {
  return z
    .string({ message })
    .transform((text) => (text === '' ? [] : jsonList(text)))
    .pipe(z.array(item, { message }).max(max))
    .optional()
    .meta({ description, example });
}

/** Reads a list sent as JSON text (query strings and form fields carry lists that way); anything unreadable fails the list check. */
function jsonList(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || value === '') return [];
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

const pageSchema = z.coerce.number().int().min(1).max(100_000).default(1);
const typeNames = Object.keys(GALLERY_TYPES) as [GalleryTypeName, ...GalleryTypeName[]];

/** GET /api/gallery/get's query (SPEC §7: `type` and `tags` are JSON lists); it parses into the listing's canonical filters, deduplicated once here. */
export const galleryListQuerySchema = z
  .object({
    page: pageSchema,
    user: z
      .string()
      .regex(/^([0-9a-f]{32})?$/, { message: 'The user must be a player uuid.' })
      .optional()
      .meta({ description: "Only this player's uploads (their uuid)" }),
    title: z
      .string()
      .max(20)
      .regex(/^[A-Za-z0-9_\s]*$/, { message: galleryMessages.titleCharacters })
      .optional(),
    sortBy: z.enum(GALLERY_SORTS, { message: `sortBy must be one of ${GALLERY_SORTS.join(', ')}` }).default(DEFAULT_GALLERY_SORT),
    type: jsonListParam(
      z.enum(typeNames),
      3,
      'type must be a JSON list of cape, ears or animated',
      'JSON list of texture types: cape, ears, animated',
      '["cape","animated"]',
    ),
    tags: jsonListParam(tagKeySchema, 20, 'tags must be a JSON list of tag keys', 'JSON list of tag keys an item must all have', '["anime"]'),
  })
  .transform((query) => ({
    page: query.page,
    author: query.user || undefined,
    title: query.title?.trim() ?? '',
    sort: query.sortBy,
    types: uniqueValues(query.type ?? []),
    tags: uniqueValues(query.tags ?? []),
  }));
/** A page number query (`?page=`, from 1). */
export const pageQuerySchema = z.object({ page: pageSchema });

/** Tags sent as a JSON list (the edit and upload forms), without repeats. */
export const galleryTagsFieldSchema = z
  .preprocess(jsonList, z.array(tagKeySchema, { message: galleryMessages.unknownTag }).max(GALLERY_TAGS_MAX))
  .transform((tags) => uniqueValues(tags))
  .meta({ description: 'Tag keys: a JSON list as text (`["anime"]`), or a list' });
/** A call that names one gallery item. */
export const galleryHashBodySchema = z.object({ hash: textureHashSchema });
/** POST /api/gallery/report: the item, the ticked terms, the reason and the optional note. */
export const galleryReportBodySchema = z.object({
  hash: textureHashSchema,
  tac: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], { message: 'You must accept the terms to report a texture.' }),
  ...reportReasonFields,
});
/** POST /api/gallery/edit: the new title and tags (JSON list). */
export const galleryEditBodySchema = z.object({
  hash: textureHashSchema,
  title: z.string({ message: galleryMessages.missingFields }),
  tags: galleryTagsFieldSchema,
});
/** POST /api/gallery/new's multipart fields (checked by the handler, which reads the stream). */
export const galleryNewFieldsSchema = z.object({
  title: z.string().meta({ description: 'At most 20 letters, digits, underscores and spaces' }),
  tags: z.string().meta({ description: 'JSON list of tag keys', example: '["anime"]' }),
  file: z.string().meta({ format: 'binary', description: 'PNG or GIF, at most 500 KB' }),
});
/** What a like toggle answers: the new state and count. */
export const likeResultSchema = z.object({ liked: z.boolean(), total_user_likes: z.number().int() });
/** What an edit answers: the reloaded item. */
export const editResultSchema = z.object({ success: z.literal(true), item: galleryItemSchema });
/** What a gallery upload answers: the item's hash, and whether that texture was already in the gallery. */
export const galleryNewResultSchema = z.object({ success: z.literal(true), hash: z.string(), existing: z.boolean(), notice: uploadNoticeSchema });

// ---- Mod API ----

/** What the mod reads from GET /profile/{uuid} (DESIGN.md "The mod API"). */
export const modProfileSchema = z
  .object({
    capeGlint: z.boolean(),
    upsideDown: z.boolean(),
    animatedCape: z.boolean(),
    cape_url: z.string().nullable(),
    animated_cape_url: z.string().nullable(),
    ear_url: z.string().nullable(),
  })
  .meta({ id: 'ModProfile' });

// ---- Users (lookup and report) ----

/** A player's name or uuid in a lookup path: a uuid with or without dashes, or a username (1–16 letters, digits, underscores). */
export const playerIdSchema = z
  .string()
  .regex(/^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z0-9_]{1,16})$/, {
    message: 'Enter a username (at most 16 letters, digits and underscores) or a uuid.',
  })
  .meta({ description: 'A username (any case) or a uuid (with or without dashes)' });

/** GET /api/user/search/{id}: a registered player as others see them (SPEC §3 player lookup result). */
export const playerLookupSchema = z
  .object({
    uuid: playerUuidSchema,
    username: z.string(),
    group: z.object({ name: z.string(), emoji: z.string() }),
    premium: z.object({ boost_only: z.boolean() }).nullable(),
    profile: modProfileSchema,
  })
  .meta({ id: 'PlayerLookup' });

/** POST /api/user/report: the reported player, the ticked terms, the reason and the optional note. */
export const userReportBodySchema = z.object({
  uuid: z.string().regex(/^[0-9a-f]{32}$/, { message: 'That user does not exist.' }),
  terms: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], { message: 'You must accept the terms to report a user.' }),
  ...reportReasonFields,
});

// ---- Premium ----

const premiumItemSchema = z.enum(['animated', 'glint', 'dinnerbone'], { message: 'Choose animated, glint or dinnerbone.' });
/** GET /api/premium: each feature's price and, for a logged-in player, whether they own it and have it on. */
export const premiumStateSchema = z
  .object({
    currency: z.string(),
    items: z.array(z.object({ key: premiumItemSchema, price: z.string(), owned: z.boolean(), enabled: z.boolean() })),
    providers: z.object({ paypal: z.boolean(), card: z.boolean() }).meta({ description: 'Which ways to pay are set up' }),
  })
  .meta({ id: 'PremiumState' });
/** GET /api/premium/init (SPEC §3 premium init): where the checkout form goes, and the fields it carries. */
export const premiumInitSchema = z
  .object({
    paypalUrl: z.string(),
    paypalEmail: z.string(),
    currency: z.string(),
    prices: z.record(premiumItemSchema, z.string()),
    returnUrl: z.string(),
    notifyUrl: z.string(),
  })
  .meta({ id: 'PremiumInit' });
/** POST /api/premium/payment/intent: the buyer (the logged-in player) and the feature. */
export const paymentIntentBodySchema = z.object({
  uuid: playerUuidSchema,
  item: premiumItemSchema.meta({ description: 'animated, glint or dinnerbone' }),
});
/** What POST /api/premium/payment/intent answers (SPEC §3 payment intent response): the hosted checkout to go to. */
export const paymentIntentSchema = z.object({ url: z.string() }).meta({ id: 'PaymentIntent' });
/** What POST /api/premium/glint and /dinnerbone answer: the feature's new state. */
export const premiumToggleSchema = z.object({ success: z.literal(true), enabled: z.boolean() }).meta({ id: 'PremiumToggle' });

// ---- Premium boost and the chat-community bot ----

/** A yes-or-no answer of the boost page's polls (`linked`, `boosting`). */
export const successFlagSchema = z.object({ success: z.boolean() }).meta({ id: 'SuccessFlag' });
/** A one-time code the player gives the bot (link code, premium role code). */
export const codeSchema = z.object({ code: z.string() }).meta({ id: 'Code' });
/** GET /api/premium/boost/discord/usable: the cosmetics a boost can give, by key. */
export const usableCosmeticsSchema = z.object({ cosmetics: z.record(z.string(), z.string()) }).meta({ id: 'UsableCosmetics' });
/** GET /api/premium/boost/discord/cosmetic: the chosen cosmetic, or null. */
export const cosmeticSchema = z.object({ cosmetic: z.string().nullable() }).meta({ id: 'Cosmetic' });
/** POST /api/premium/boost/discord/cosmetic: the cosmetic to get while boosting. */
export const cosmeticBodySchema = z.object({ cosmetic: premiumItemSchema });

const discordIdSchema = z.string().regex(/^\d{5,20}$/, { message: 'A member id is 5 to 20 digits.' });
const botCodeSchema = z.string().regex(/^[A-Z2-9]{8}$/, { message: 'A code is 8 letters and digits.' });
/** POST /api/bot/link and /api/bot/role: a code a player gave the member, and the member's id. */
export const botCodeBodySchema = z.object({ code: botCodeSchema, discordId: discordIdSchema });
/** POST /api/bot/boosting: whether a member boosts now. */
export const botBoostingBodySchema = z.object({ discordId: discordIdSchema, boosting: z.boolean() });
/** POST /api/bot/unlink: the member. */
export const botMemberBodySchema = z.object({ discordId: discordIdSchema });
/** What the bot's calls answer: the player the member is linked to. */
export const botPlayerSchema = z.object({ success: z.literal(true), uuid: playerUuidSchema, username: z.string() }).meta({ id: 'BotPlayer' });
/** GET /api/bot/links's query: the member id to continue after, and how many. */
export const botLinksQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{0,20}$/, { message: 'after is a member id.' })
    .default(''),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
/** What GET /api/bot/links answers: linked members in id order, and the id to continue after (null at the end). */
export const botLinksSchema = z
  .object({
    data: z.array(z.object({ discordId: z.string(), uuid: playerUuidSchema, username: z.string(), boosting: z.boolean() })),
    next: z.string().nullable(),
  })
  .meta({ id: 'BotLinks' });

// ---- Admin ----

/** A pager link of a paginated admin answer. */
export const pageLinkSchema = z.object({ label: z.string(), url: z.string().nullable(), active: z.boolean() }).meta({ id: 'PageLink' });
/** A paginated admin answer (SPEC §3): one page of rows, the pager and the page shown. */
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

/** A row of GET /api/admin/bans/user (SPEC §3 user ban row, plus the uuid the unban call takes). */
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

/** POST /api/admin/user/ban: the player, the ticked confirm box and the reason's key. */
export const adminBanBodySchema = z.object({
  uuid: playerUuidSchema,
  confirm: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], { message: 'Tick the confirm box to ban this player.' }),
  reason: z.string().min(1, { message: 'Choose a reason.' }),
});

/** POST /api/admin/bans/user/delete: the player to unban. */
export const adminUuidBodySchema = z.object({ uuid: playerUuidSchema });

/** GET /api/admin/user/{username}: the edit user page's record (SPEC §3 admin user record). */
export const adminUserRecordSchema = z
  .object({
    username: z.string(),
    uuid: playerUuidSchema,
    createdAt: z.number().int().nullable(),
    banned: z.boolean(),
    hasCape: z.boolean(),
    hasEars: z.boolean(),
    cape: z.string().nullable().meta({ description: 'The still cape the player wears, as a path (`/textures/<hash>`), or null' }),
    ears: z.string().nullable().meta({ description: 'The ears the player wear, as a path (`/textures/<hash>`), or null' }),
    profile: z.object({ animatedCape: z.boolean(), capeGlint: z.boolean(), upsideDown: z.boolean() }),
  })
  .meta({ id: 'AdminUserRecord' });

/** POST /api/admin/user/{cape,ears}/delete: done, and how many players lost the picture (the player and everyone wearing the same). */
export const adminTextureRemovalSchema = z.object({ success: z.literal(true), players: z.number().int().min(0) }).meta({ id: 'AdminTextureRemoval' });

/** POST /api/admin/user/delete: the player and the ticked confirm box. */
export const adminDeleteBodySchema = z.object({
  uuid: playerUuidSchema,
  confirm: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], { message: 'Tick the confirm box to delete this player.' }),
});

/** A row of GET /api/admin/reports/user (SPEC §3 user report): the reported textures as PNG data URLs, or null. */
export const userReportRowSchema = z
  .object({
    id: z.number().int(),
    uuid: playerUuidSchema,
    username: z.string(),
    reported_by_username: z.string(),
    cape: z.string().nullable(),
    ears: z.string().nullable(),
    reason: z.string().nullable().meta({ description: "The reporter's reason; null on reports filed before reasons existed" }),
    note: z.string().nullable().meta({ description: "The reporter's note, if any" }),
    createdAt: z.number().int(),
  })
  .meta({ id: 'UserReportRow' });

/** POST /api/admin/reports/{user or gallery}: the report, the answer and, for REMOVE and BAN, the reason's key. */
export const reportActionBodySchema = z.object({
  id: z.coerce.number().int().positive(),
  action: z.enum(['IGNORE', 'REMOVE', 'BAN', 'WHITELIST'], { message: 'Choose IGNORE, REMOVE, BAN or WHITELIST.' }),
  reason: z.string().nullish(),
});

/** A row of GET /api/admin/reports/gallery (SPEC §3 gallery report, with the item's title). */
export const galleryReportRowSchema = z
  .object({
    id: z.number().int(),
    reported_by_username: z.string(),
    username: z.string(),
    hash: z.string(),
    title: z.string(),
    reason: z.string().nullable().meta({ description: "The reporter's reason; null on reports filed before reasons existed" }),
    note: z.string().nullable().meta({ description: "The reporter's note, if any" }),
    createdAt: z.number().int(),
  })
  .meta({ id: 'GalleryReportRow' });

/** A row of GET /api/admin/audit: who did what, to whom or to which texture, why and when. */
export const auditRowSchema = z
  .object({
    id: z.number().int(),
    createdAt: z.number().int(),
    admin_uuid: z.string(),
    admin_name: z.string(),
    action: z.string(),
    target_uuid: z.string().nullable(),
    target_name: z.string().nullable(),
    target_hash: z.string().nullable(),
    reason: z.string().nullable(),
    detail: z.string().nullable().meta({ description: 'What changed, as recorded (flags set, the report answered, how many players lost a picture)' }),
    thumbnail: z
      .string()
      .nullable()
      .meta({ description: 'A small picture of the texture the action was about (PNG data URL), kept after the texture is gone' }),
  })
  .meta({ id: 'AuditRow' });

/** A row of GET /api/admin/gallery/whitelist (SPEC §3 gallery whitelist row, with the item's title). */
export const whitelistRowSchema = z
  .object({ hash: z.string(), title: z.string(), author_name: z.string(), author_uuid: z.string() })
  .meta({ id: 'WhitelistRow' });

/** POST /api/admin/registration/generate: the player's name (letters, digits and underscores, at most 16). */
export const registrationBodySchema = z.object({
  username: z.string({ message: 'Enter a username.' }).regex(/^[A-Za-z0-9_]{1,16}$/, { message: 'A username is 1 to 16 letters, digits or underscores.' }),
});
/** What POST /api/admin/registration/generate answers: the player's one-time login code. */
export const registrationCodeSchema = z
  .object({ success: z.literal(true), code: z.string(), username: z.string(), uuid: playerUuidSchema, expiresInMinutes: z.number().int() })
  .meta({ id: 'RegistrationCode' });

/** A row of GET /api/admin/ai-cape-logs (SPEC §3 AI cape log): the image is at /api/admin/ai-cape-logs/{id}. */
export const aiCapeLogRowSchema = z
  .object({ id: z.number().int(), created_at: z.number().int(), request_head: z.string(), username: z.string().nullable(), hasImage: z.boolean() })
  .meta({ id: 'AiCapeLogRow' });
/** What GET /api/admin/ai-cape-logs answers (SPEC §3): the page's logs and the counts the pager needs. */
export const aiCapeLogPageSchema = z
  .object({
    logs: z.array(aiCapeLogRowSchema),
    pages: z.object({ total_count: z.number().int().nonnegative(), per_page: z.number().int().positive(), current_page: z.number().int().min(1) }),
  })
  .meta({ id: 'AiCapeLogPage' });

/** POST /api/admin/user/profile: the cape flags a moderator sets on a player who has a cape (each optional). */
export const adminProfileFlagsBodySchema = z.object({
  uuid: playerUuidSchema,
  animatedCape: z.boolean().optional(),
  capeGlint: z.boolean().optional(),
  upsideDown: z.boolean().optional(),
});

/** GET /api/admin/audit's query: the page, and optionally a moderator and a player (each a name or a uuid). */
export const auditQuerySchema = z.object({
  page: pageSchema,
  admin: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,32}$/, { message: 'A moderator is a name or a uuid.' })
    .optional(),
  player: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,32}$/, { message: 'A player is a name or a uuid.' })
    .optional(),
});

// ---- Creators ----

/** A cape a creator made (answered as JSON when the call asks for it, else the PNG itself). */
export const creationSchema = z
  .object({
    success: z.literal(true),
    hash: textureHashSchema.meta({ description: "The texture: an animation's strip, otherwise the still cape" }),
    cape: z.string().meta({ description: 'URL of the cape texture (the strip of an animation)' }),
    preview: z.string().meta({ description: 'URL of the 320 x 180 preview' }),
    width: z.number().int(),
    height: z.number().int(),
    frames: z.number().int(),
    notice: uploadNoticeSchema,
  })
  .meta({ id: 'Creation' });
/** POST /api/gallery/creations/use: the creation to wear as the cape. */
export const creationUseBodySchema = z.object({ hash: textureHashSchema });
/** POST /api/gallery/creations/share: the creation with the gallery item's title and tags. */
export const creationShareBodySchema = z.object({ hash: textureHashSchema, title: z.string(), tags: galleryTagsFieldSchema });
/** POST /api/gallery/ai-cape-creator: the prompt (at most 50 characters). */
export const aiPromptBodySchema = z.object({ prompt: z.string().max(500) });
/** GET /api/gallery/ai-cape-creator: which image maker makes the AI capes. */
export const aiProviderSchema = z.object({ name: z.string(), builtIn: z.boolean() }).meta({ id: 'AiProvider' });
