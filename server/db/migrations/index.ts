// Every schema migration by the name the migrator records in kysely_migration (names never change: existing databases
// know them), in the order they run; each runs on SQLite and on PostgreSQL alike, one file per migration.
import type { Migration } from 'kysely/migration';
import { accounts } from './0001-accounts.ts';
import { textures } from './0002-textures.ts';
import { gallery } from './0003-gallery.ts';
import { gallerySortIndexes } from './0004-gallery-sort-indexes.ts';
import { gallerySqliteCoveringIndexes } from './0005-gallery-sqlite-covering-indexes.ts';
import { galleryTitleCounts } from './0006-gallery-title-counts.ts';
import { moderation } from './0007-moderation.ts';
import { siteCounts } from './0008-site-counts.ts';
import { galleryHiddenItems } from './0009-gallery-hidden-items.ts';
import { premiumPayments } from './0010-premium-payments.ts';
import { discordLinks } from './0011-discord-links.ts';
import { oauthLogins } from './0012-oauth-logins.ts';
import { paymentSafeguards } from './0013-payment-safeguards.ts';
import { creationMakers } from './0014-creation-makers.ts';
import { moderationDetails } from './0015-moderation-details.ts';
import { lastLogin } from './0016-last-login.ts';
import { modAnswerChanges } from './0017-mod-answer-changes.ts';
import { withheldTextures } from './0018-withheld-textures.ts';
import { galleryWears } from './0019-gallery-wears.ts';
import { wardrobe } from './0020-wardrobe.ts';
import { oauthDeviceFlow } from './0021-oauth-device-flow.ts';
import { wardrobeNames } from './0022-wardrobe-names.ts';
import { auditNameKeys } from './0023-audit-name-keys.ts';

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_textures': textures,
  '0003_gallery': gallery,
  '0004_gallery_sort_indexes': gallerySortIndexes,
  '0005_gallery_sqlite_covering_indexes': gallerySqliteCoveringIndexes,
  '0006_gallery_title_counts': galleryTitleCounts,
  '0007_moderation': moderation,
  '0008_site_counts': siteCounts,
  '0009_gallery_hidden_items': galleryHiddenItems,
  '0010_premium_payments': premiumPayments,
  '0011_discord_links': discordLinks,
  '0012_oauth_logins': oauthLogins,
  '0013_payment_safeguards': paymentSafeguards,
  '0014_creation_makers': creationMakers,
  '0015_moderation_details': moderationDetails,
  '0016_last_login': lastLogin,
  '0017_mod_answer_changes': modAnswerChanges,
  '0018_withheld_textures': withheldTextures,
  '0019_gallery_wears': galleryWears,
  '0020_wardrobe': wardrobe,
  '0021_oauth_device_flow': oauthDeviceFlow,
  '0022_wardrobe_names': wardrobeNames,
  '0023_audit_name_keys': auditNameKeys,
};
