// Shapes shared by the browser and the server, inferred from the API's schemas in src/lib/schemas/.
// Type-only imports: the islands get the types without shipping zod.
import type { z } from 'zod';
import type {
  checkAuthResultSchema,
  contributorSchema,
  groupSchema,
  homeStatsSchema,
  oauthCallbackResultSchema,
  premiumSchema,
  userSchema,
} from './schemas/account';
import type {
  adminInfoSchema,
  aiCapeLogPageSchema,
  adminTextureRemovalSchema,
  adminUserRecordSchema,
  auditRowSchema,
  galleryReportRowSchema,
  pageLinkSchema,
  registrationCodeSchema,
  userBanRowSchema,
  userReportRowSchema,
  whitelistRowSchema,
} from './schemas/admin';
import type { successSchema } from './schemas/common';
import type { editResultSchema, galleryItemSchema, galleryPageSchema, likeResultSchema, tagSchema, userGallerySchema } from './schemas/gallery';
import type { modProfileSchema } from './schemas/mod';
import type { playerLookupSchema } from './schemas/players';
import type {
  codeSchema,
  cosmeticSchema,
  paymentIntentSchema,
  premiumInitSchema,
  premiumStateSchema,
  premiumToggleSchema,
  successFlagSchema,
  usableCosmeticsSchema,
} from './schemas/premium';
import type { uploadResultSchema } from './schemas/uploads';

/** A user's group: its name, emoji and admin flag. */
export type Group = z.output<typeof groupSchema>;
/** The premium features a user owns, or null when none. */
export type Premium = z.output<typeof premiumSchema>;
/** The current user, as `GET /api/user` returns it and local storage keeps it. */
export type User = z.output<typeof userSchema>;
/** A registered player as the lookup shows them. */
export type PlayerLookup = z.output<typeof playerLookupSchema>;
/** The admin dashboard's totals. */
export type AdminInfo = z.output<typeof adminInfoSchema>;
/** A player's record on the edit user page. */
export type AdminUserRecord = z.output<typeof adminUserRecordSchema>;
/** The answer to deleting a player's cape or ears: how many players lost the picture. */
export type AdminTextureRemoval = z.output<typeof adminTextureRemovalSchema>;
/** A link of an admin list's pager. */
export type PageLink = z.output<typeof pageLinkSchema>;
/** One page of an admin list. */
export interface Paginated<T> {
  data: T[];
  links: PageLink[];
  currentPage: number;
}
/** A row of the audit log. */
export type AuditRow = z.output<typeof auditRowSchema>;
/** A gallery report in the admin queue. */
export type GalleryReportRow = z.output<typeof galleryReportRowSchema>;
/** An open player report in the admin queue. */
export type UserReportRow = z.output<typeof userReportRowSchema>;
/** The premium features' prices and the player's state of each. */
export type PremiumState = z.output<typeof premiumStateSchema>;
/** Where the PayPal checkout form goes. */
export type PremiumInit = z.output<typeof premiumInitSchema>;
/** A yes-or-no poll answer. */
export type SuccessFlag = z.output<typeof successFlagSchema>;
/** A one-time code for the bot. */
export type Code = z.output<typeof codeSchema>;
/** The cosmetics a boost can give. */
export type UsableCosmetics = z.output<typeof usableCosmeticsSchema>;
/** The chosen boost cosmetic. */
export type Cosmetic = z.output<typeof cosmeticSchema>;
/** Where a card checkout happens. */
export type PaymentIntent = z.output<typeof paymentIntentSchema>;
/** A premium toggle's answer. */
export type PremiumToggle = z.output<typeof premiumToggleSchema>;
/** A row of the gallery whitelist. */
export type WhitelistRow = z.output<typeof whitelistRowSchema>;
/** A generated registration code. */
export type RegistrationCode = z.output<typeof registrationCodeSchema>;
/** One page of the AI cape log. */
export type AiCapeLogPage = z.output<typeof aiCapeLogPageSchema>;
/** A row of the ban list. */
export type UserBanRow = z.output<typeof userBanRowSchema>;
/** A footer contributor. */
export type Contributor = z.output<typeof contributorSchema>;
/** The home page's statistics. */
export type HomeStats = z.output<typeof homeStatsSchema>;
/** What the code login answers. */
export type CheckAuthResult = z.output<typeof checkAuthResultSchema>;
/** What a finished Microsoft login answers. */
export type OAuthCallbackResult = z.output<typeof oauthCallbackResultSchema>;
/** What a cape or ears upload answers on success. */
export type UploadResult = z.output<typeof uploadResultSchema>;
/** `{success: true}`. */
export type Success = z.output<typeof successSchema>;
/** A gallery tag. */
export type Tag = z.output<typeof tagSchema>;
/** One gallery item as the API answers it. */
export type GalleryItem = z.output<typeof galleryItemSchema>;
/** One page of gallery items. */
export type GalleryPage = z.output<typeof galleryPageSchema>;
/** What GET /api/gallery/user/{uuid} answers. */
export type UserGallery = z.output<typeof userGallerySchema>;
/** What a like toggle answers. */
export type LikeResult = z.output<typeof likeResultSchema>;
/** What a gallery edit answers. */
export type EditResult = z.output<typeof editResultSchema>;
/** What the mod reads from GET /profile/{uuid} (docs/mod-api.md). */
export type ModProfile = z.output<typeof modProfileSchema>;
