// Table types for Kysely. Times are milliseconds since the epoch; flags are 0 or 1 (one schema for SQLite and
// PostgreSQL).
import type { Generated } from 'kysely';
import type { OAuthClientsTable, OAuthDeviceRequestsTable, OAuthGrantsTable, OAuthTokensTable } from './schema-apps.ts';

export interface GroupsTable {
  id: number;
  name: string;
  emoji: string;
  admin: number;
}

export interface UsersTable {
  uuid: string;
  username: string;
  username_lower: string;
  group_id: Generated<number>;
  banned: Generated<number>;
  created_at: number;
  /** The static cape (or an animated cape's first frame). */
  cape_hash: string | null;
  /** An animated cape's frames, stacked vertically. */
  cape_strip_hash: string | null;
  ears_hash: string | null;
  /** When the player last logged in (null before their first login). */
  last_login_at: number | null;
  /**
   * The second the player's mod API answers last changed (never past the clock; strictly increasing per player where
   * answer files are written): their answer files' time and their answers' Last-Modified.
   */
  answers_at: number | null;
}

/** A change to a player's or a texture's mod API answers, numbered in order (the answer files catch up from it). */
export interface ModChangesTable {
  seq: Generated<number>;
  /** A player's uuid (32 hex) or a texture's hash (64 hex). */
  subject: string;
  created_at: number;
}

export interface TexturesTable {
  hash: string;
  kind: string;
  width: number;
  height: number;
  frames: number;
  bytes: number;
  created_at: number;
  /**
   * When the texture stopped being served (removed by a moderator, or worn only by banned or deleted players); null
   * while it is public.
   */
  withheld_at: number | null;
}

export interface PremiumTable {
  user_uuid: string;
  animated: Generated<number>;
  glint: Generated<number>;
  dinnerbone: Generated<number>;
  boost_only: Generated<number>;
  glint_enabled: Generated<number>;
  dinnerbone_enabled: Generated<number>;
}

export interface SessionsTable {
  id: string;
  user_uuid: string;
  created_at: number;
  expires_at: number;
}

export interface LoginCodesTable {
  code: string;
  user_uuid: string;
  expires_at: number;
}

/** A Microsoft login under way: started by one browser (the SHA-256 of its cookie token), used once, for 10 minutes. */
export interface OAuthLoginsTable {
  id: string;
  /** The `state` sent to the sign-in page; the callback must bring it back. */
  state: string;
  /** The PKCE code verifier whose S256 challenge the sign-in page was given. */
  code_verifier: string;
  /** Where the player goes after the login (a safe site path). */
  ref: string;
  created_at: number;
  expires_at: number;
}

export interface TagsTable {
  tag_key: string;
  name: string;
}

export interface GalleryItemsTable {
  hash: string;
  strip_hash: string | null;
  title: string;
  title_lower: string;
  author_uuid: string;
  /** 0 cape, 1 ears, 2 animated cape. */
  type: number;
  whitelisted: Generated<number>;
  likes: Generated<number>;
  downloads: Generated<number>;
  /** How many times players put the item on with "Wear this" (0019). */
  wears: Generated<number>;
  created_at: number;
  /**
   * 1 while the author is banned: the item is out of the gallery (lists, counters, item calls) until the unban (0009).
   */
  hidden: Generated<number>;
}

export interface GalleryTagsTable {
  hash: string;
  tag_key: string;
}

export interface GalleryLikesTable {
  hash: string;
  user_uuid: string;
}

/** Each player who wore a gallery item, once: `gallery_items.wears` counts them. */
export interface GalleryWearersTable {
  hash: string;
  user_uuid: string;
}

export interface GalleryReportsTable {
  id: Generated<number>;
  hash: string;
  reporter_uuid: string;
  /** The reporter's reason (a ban reason key; null on reports filed before reasons existed). */
  reason_key: string | null;
  /** The reporter's optional note. */
  note: string | null;
  created_at: number;
}

export interface GalleryCountsTable {
  key: string;
  n: number;
}

export interface UserReportsTable {
  id: Generated<number>;
  user_uuid: string;
  reporter_uuid: string;
  /** The reported player's textures when reported (kept as evidence). */
  cape_hash: string | null;
  cape_strip_hash: string | null;
  ears_hash: string | null;
  /** The reporter's reason (a ban reason key; null on reports filed before reasons existed). */
  reason_key: string | null;
  /** The reporter's optional note. */
  note: string | null;
  created_at: number;
  /** Null while the report is open. */
  resolved_at: number | null;
  resolved_by: string | null;
  /** IGNORE, REMOVE or BAN. */
  resolution: string | null;
}

export interface UserBansTable {
  id: Generated<number>;
  user_uuid: string;
  reason_key: string;
  reason_text: string;
  reported_by_uuid: string | null;
  banned_by_uuid: string | null;
  created_at: number;
}

export interface AdminAuditTable {
  id: Generated<number>;
  created_at: number;
  admin_uuid: string;
  admin_name: string;
  /** The actor's name in lower case (auditNameKey), as the By filter finds it. */
  admin_name_lower: string | null;
  action: string;
  target_uuid: string | null;
  target_name: string | null;
  /** The player's name in lower case (auditNameKey), as the player filter finds it. */
  target_name_lower: string | null;
  target_hash: string | null;
  reason: string | null;
  detail: string | null;
  /** A small picture (PNG data URL) of the texture the action was about, or null. */
  thumbnail: string | null;
}

export interface TextureBlocklistTable {
  hash: string;
  /** 64-bit perceptual hash, 16 hex digits. */
  phash: string;
  reason: string;
  admin_uuid: string;
  created_at: number;
}

export interface AiCapeLogsTable {
  id: Generated<number>;
  created_at: number;
  user_uuid: string | null;
  prompt: string;
  texture_hash: string | null;
}

/** Counters kept by triggers: users, capes, ears, premium. */
export interface SiteCountsTable {
  key: string;
  n: number;
}

/** A provider transaction that paid for a premium feature. */
export interface PremiumPaymentsTable {
  provider: string;
  txn_id: string;
  user_uuid: string;
  item: string;
  amount: string;
  currency: string;
  /** completed, refunded or reversed. */
  status: string;
  created_at: number;
  updated_at: number;
}

/** A payment notification as it arrived, and what became of it. */
export interface PaymentNotificationsTable {
  id: Generated<number>;
  provider: string;
  received_at: number;
  body: string;
  txn_id: string | null;
  outcome: string;
}

/** A premium feature a moderator gave a player (kept through refunds and boosts ending). */
export interface PremiumGrantsTable {
  user_uuid: string;
  item: string;
  /** The moderator's uuid. */
  granted_by: string;
  granted_at: number;
}

/** A player's chat-community link and boost. */
export interface DiscordLinksTable {
  user_uuid: string;
  /** The member id once the bot bound the link code; null until then. */
  discord_id: string | null;
  link_code: string | null;
  link_code_expires_at: number | null;
  boosting: Generated<number>;
  cosmetic: string | null;
  /** The feature this boost granted (not owned before it). */
  granted_item: string | null;
  updated_at: number;
}

/** A one-time code a premium holder gives the bot for the community's premium role. */
export interface DiscordRoleCodesTable {
  code: string;
  user_uuid: string;
  expires_at: number;
  /** The member who claimed it; null while unused. */
  claimed_by: string | null;
}

/** A player who made a creation (asked a creator for it, the cache answering or not), and when they last did. */
export interface CreationMakersTable {
  hash: string;
  user_uuid: string;
  made_at: number;
}

/** What a wardrobe item came from: an upload, a creator's creation, or a gallery item. */
export type WardrobeSource = 'upload' | 'creator' | 'gallery';

/** A picture a player has had, to wear again: one row per player, kind and picture. */
export interface WardrobeItemsTable {
  /** Opaque: random, not derived from anything. */
  id: string;
  user_uuid: string;
  kind: 'cape' | 'ears';
  /** The picture: an animation's strip, else the still. */
  hash: string;
  /** An animation's first frame (null for a still picture). */
  still_hash: string | null;
  source: WardrobeSource;
  /** The gallery item's hash, or the creator's name. */
  source_ref: string | null;
  /** The gallery item's title when it came from the gallery; else the page shows the date. */
  title: string | null;
  /** The player's name for the item, or the uploaded file's name; null: named by its title, or its kind and time. */
  name: string | null;
  added_at: number;
}

/** The last item a full wardrobe let go, one row per player, shown on the wardrobe page. */
export interface WardrobeDropsTable {
  user_uuid: string;
  kind: 'cape' | 'ears';
  /** The item's name when it had one, else its gallery title. */
  title: string | null;
  added_at: number;
  dropped_at: number;
}

/** The whole database, as Kysely sees it. */
export interface Database {
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_codes: LoginCodesTable;
  oauth_logins: OAuthLoginsTable;
  textures: TexturesTable;
  premium: PremiumTable;
  tags: TagsTable;
  gallery_items: GalleryItemsTable;
  gallery_tags: GalleryTagsTable;
  gallery_likes: GalleryLikesTable;
  gallery_wearers: GalleryWearersTable;
  gallery_reports: GalleryReportsTable;
  gallery_counts: GalleryCountsTable;
  user_reports: UserReportsTable;
  user_bans: UserBansTable;
  admin_audit: AdminAuditTable;
  texture_blocklist: TextureBlocklistTable;
  ai_cape_logs: AiCapeLogsTable;
  site_counts: SiteCountsTable;
  premium_payments: PremiumPaymentsTable;
  payment_notifications: PaymentNotificationsTable;
  premium_grants: PremiumGrantsTable;
  discord_links: DiscordLinksTable;
  discord_role_codes: DiscordRoleCodesTable;
  creation_makers: CreationMakersTable;
  mod_changes: ModChangesTable;
  wardrobe_items: WardrobeItemsTable;
  wardrobe_drops: WardrobeDropsTable;
  oauth_clients: OAuthClientsTable;
  oauth_device_requests: OAuthDeviceRequestsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_tokens: OAuthTokensTable;
}
