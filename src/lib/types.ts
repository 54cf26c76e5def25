// Shapes shared by the browser and the server (SPEC §3).

/** A user's group: its name, emoji and admin flag. */
export interface Group {
  name: string;
  emoji: string;
  admin: boolean;
}

/** The premium features a user owns, or null when none. */
export interface Premium {
  animated: boolean;
  glint: boolean;
  dinnerbone: boolean;
  boost_only: boolean;
}

/** The current user, as `GET /api/user` returns it and local storage keeps it. */
export interface User {
  uuid: string;
  username: string;
  group: Group;
  premium: Premium | null;
}

/** A footer contributor. */
export interface Contributor {
  uuid: string;
  username: string;
}

/** A gallery tag. */
export interface Tag {
  tag_key: string;
  name: string;
}

/** One gallery item as the API answers it (SPEC §3). */
export interface GalleryItem {
  hash: string;
  title: string;
  /** The author's uuid. */
  author: string;
  author_name: string;
  /** 0 cape, 1 ears, 2 animated cape. */
  type: number;
  animated: boolean;
  /** The still PNG, relative to the API host. */
  texture: string;
  /** The animated strip (frames stacked vertically), or null. */
  animated_texture: string | null;
  tags: Tag[];
  whitelisted: boolean;
  user_liked: boolean;
  total_user_likes: number;
  downloads: number;
  createdAt: string;
}

/** One page of gallery items. */
export interface GalleryPage {
  data: GalleryItem[];
  /** How many items match; when `total_capped`, at least this many (a search counts up to GALLERY_COUNT_CAP). */
  total: number;
  /** Whether more items match than `total` says. */
  total_capped: boolean;
  per_page: number;
  current_page: number;
}

/** What the mod reads from GET /profile/{uuid} (DESIGN.md "The mod API"). */
export interface ModProfile {
  capeGlint: boolean;
  upsideDown: boolean;
  animatedCape: boolean;
  cape_url: string | null;
  animated_cape_url: string | null;
  ear_url: string | null;
}
