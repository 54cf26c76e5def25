// The shapes the site and the server share beyond one call's answer (a call's answer is ApiAnswer<name>,
// src/lib/api.ts), inferred from the API's schemas in src/lib/schemas/. Type-only imports: the islands get the types
// without shipping zod.
import type { z } from 'zod';
import type { premiumSchema, userSchema } from './account';
import type { pageLinkSchema } from './admin';
import type { galleryItemSchema, galleryPageSchema, tagSchema } from './gallery';
import type { modProfileSchema } from './mod';
import type { playerLookupSchema } from './players';

/** The premium features a user owns, or null when none. */
export type Premium = z.output<typeof premiumSchema>;
/** The current user, as `GET /api/user` returns it and local storage keeps it. */
export type User = z.output<typeof userSchema>;
/** A registered player as the lookup shows them. */
export type PlayerLookup = z.output<typeof playerLookupSchema>;
/** A link of an admin list's pager. */
export type PageLink = z.output<typeof pageLinkSchema>;
/** A gallery tag. */
export type Tag = z.output<typeof tagSchema>;
/** One gallery item as the API answers it. */
export type GalleryItem = z.output<typeof galleryItemSchema>;
/** One page of gallery items. */
export type GalleryPage = z.output<typeof galleryPageSchema>;
/** What the mod reads from GET /profile/{uuid} (docs/mod-api.md). */
export type ModProfile = z.output<typeof modProfileSchema>;
