// The site's route table: every page's path, title and auth flag, shared by the pages and the server.
import { PLAYER_PATH_ID_PATTERN, PLAYER_UUID_PATTERN, TEXTURE_HASH_PATTERN, USERNAME_PATTERN } from './ids';

/** One route of the site. */
export interface Route {
  /** Stable name, used by pages and tests. */
  name: string;
  /** Display pattern, e.g. `/gallery/{hash}` or `/user/:uuid?`. */
  path: string;
  /** Page title; the document title is "<title> | <site name>". */
  title: string;
  /** Whether a visitor with no stored user is sent to the login page. */
  auth: boolean;
  /** Matches a request path (no query string, no trailing slash). */
  match: RegExp;
  /** The built page that serves this route, as a site path (`/user` → dist/user.html). */
  page: string;
  /** Whether the path has parameters, so the server serves it from the page's static shell. */
  dynamic: boolean;
  /**
   * The paths served by the page's shell besides the page itself, in the placeholder syntax static hosts read
   * (`:name` is one path segment): the host rules rewrite them to `page`.
   */
  shellPaths: readonly string[];
}

const HASH = TEXTURE_HASH_PATTERN;
const UUID = PLAYER_UUID_PATTERN;
const NAME_OR_UUID = PLAYER_PATH_ID_PATTERN;

/** A route; a dynamic one has the pattern it matches, its shell page and the shell paths the host rules rewrite. */
function route(
  name: string,
  path: string,
  title: string,
  auth: boolean,
  dynamic?: { pattern: string; page: string; shellPaths: string[] },
): Route {
  return {
    name,
    path,
    title,
    auth,
    match: new RegExp(`^${dynamic?.pattern ?? escapeRegExp(path)}$`),
    page: dynamic?.page ?? path,
    dynamic: dynamic !== undefined,
    shellPaths: dynamic?.shellPaths ?? [],
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every route of the site, most specific first. */
export const routes: readonly Route[] = [
  route('home', '/', 'Home', false),
  route('upload-cape', '/upload-cape', 'Upload Cape', true),
  route('upload-ears', '/upload-ears', 'Upload Ears', true),
  route('wardrobe', '/wardrobe', 'My Wardrobe', true),
  route('upload-cape-template', '/upload-cape/template', 'Cape Template', false),
  route('upload-ears-template', '/upload-ears/template', 'Ears Template', false),
  route('premium-boost', '/premium/boost', 'Premium Boost', true),
  route('premium', '/premium/:success?', 'Premium Features', false, {
    pattern: '/premium(?:/success)?',
    page: '/premium',
    shellPaths: ['/premium/success'],
  }),
  route('download', '/download/:platform?/:version?', 'Download', false, {
    pattern: '/download(?:/[A-Za-z0-9_.-]+){0,2}',
    page: '/download',
    shellPaths: [],
  }),
  route('user-report', '/user/:uuid?/report', 'Report User', true, {
    pattern: `/user(?:/${NAME_OR_UUID})?/report`,
    page: '/user/report',
    shellPaths: ['/user/:id/report'],
  }),
  route('user', '/user/:uuid?', 'Grab a user', false, {
    pattern: `/user(?:/${NAME_OR_UUID})?`,
    page: '/user',
    shellPaths: ['/user/:id'],
  }),
  route('gallery', '/gallery', 'Official Gallery', true),
  route('gallery-new', '/gallery/new', 'Upload Texture', true),
  route('ai-cape-creator', '/gallery/ai-cape-creator', 'AI Cape Creator', true),
  route('animated-cape-creator', '/gallery/animated-cape-creator', 'Animated Cape Creator', true),
  route('cape-creator', '/gallery/cape-creator', 'Cape Creator', true),
  route('minecon-capes', '/gallery/minecon-capes', 'MINECON Capes', true),
  route('java-capes', '/gallery/java-capes', 'Java Capes', true),
  route('bedrock-capes', '/gallery/bedrock-capes', 'Bedrock Capes', true),
  route('banner-capes', '/gallery/banner-capes', 'Banner Capes', true),
  route('head-capes', '/gallery/head-capes', 'Head Capes', true),
  route('optifine-capes', '/gallery/optifine-capes', 'OptiFine Capes', true),
  // A texture's page and a player's gallery are one path segment under /gallery to a static host: one shell for both,
  // whose island chooses by the path.
  route('gallery-item', '/gallery/{hash}', 'Gallery Texture', true, {
    pattern: `/gallery/${HASH}`,
    page: '/gallery/item',
    shellPaths: ['/gallery/:id'],
  }),
  route('gallery-user', '/gallery/{uuid}', 'User Gallery', true, {
    pattern: `/gallery/${UUID}`,
    page: '/gallery/item',
    shellPaths: ['/gallery/:id'],
  }),
  route('help', '/help', 'Help', false),
  route('help-mods', '/help/mods', 'See capes in your game', false),
  route('auth', '/auth', 'Authentication Server', false),
  route('login', '/account/login', 'Login and Register', false),
  route('login-minecraft', '/account/login/minecraft', 'Login using Minecraft', false),
  route('account-delete', '/account/delete', 'Delete Account', true),
  route('account-apps', '/account/apps', 'Connected Apps', true),
  // Open to visitors: it names the app a code is for and asks them to log in before they approve it.
  route('device', '/device', 'Connect an App', false),
  route('legal', '/legal', 'Legal', false),
  route('legal-terms', '/legal/terms', 'Terms of Service', false),
  route('legal-privacy', '/legal/privacy', 'Privacy Policy', false),
  route('legal-rules', '/legal/rules', 'Rules', false),
  route('legal-disclaimer', '/legal/disclaimer', 'Disclaimer', false),
  route('admin', '/admin', 'Admin', true),
  route('admin-registration', '/admin/registration/generate', 'Registration Codes', true),
  route('admin-bans', '/admin/bans/user', 'Ban List', true),
  route('admin-whitelist', '/admin/gallery/whitelist', 'Gallery Whitelist', true),
  route('admin-user-reports', '/admin/reports/user', 'User Reports', true),
  route('admin-gallery-reports', '/admin/reports/gallery', 'Gallery Reports', true),
  route('admin-edit-user', '/admin/edit-user/:username?', 'Edit User', true, {
    pattern: `/admin/edit-user(?:/${USERNAME_PATTERN})?`,
    page: '/admin/edit-user',
    shellPaths: ['/admin/edit-user/:username'],
  }),
  route('admin-ai-cape-logs', '/admin/ai-cape-logs', 'AI Cape Logs', true),
  route('admin-audit', '/admin/audit', 'Audit Log', true),
  route('admin-apps', '/admin/oauth-clients', 'Launcher Apps', true),
];

/** The 404 page's title. */
export const NOT_FOUND_TITLE = '404 Page Not Found';

/** Strips the query string and any trailing slash (except on `/`). */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] || '/';
  return bare.length > 1 ? bare.replace(/\/+$/, '') || '/' : bare;
}

/** Finds the route that serves a path, or undefined for an unknown path. */
export function findRoute(path: string): Route | undefined {
  const bare = normalizePath(path);
  return routes.find((r) => r.match.test(bare));
}

/** Finds a route by its name; throws for a name that is not in the table. */
export function routeByName(name: string): Route {
  const found = routes.find((r) => r.name === name);
  if (!found) throw new Error(`No route named ${name}`);
  return found;
}

/** The document title for a route title: "<title> | <site name>". */
export function pageTitle(title: string, siteName: string): string {
  return `${title} | ${siteName}`;
}

/** The login URL that brings the visitor back to `path` afterwards. */
export function loginUrlFor(path: string): string {
  return `/account/login?ref=${encodeURIComponent(path)}`;
}

/**
 * Whether `ref` is a safe place to send a user after login: a path on this site, nothing a browser could read as
 * another host.
 */
export function isSafeRef(ref: unknown): ref is string {
  if (typeof ref !== 'string' || !ref.startsWith('/') || ref.startsWith('//')) return false;
  if ([...ref].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f' || char === '\\')) return false;
  try {
    return new URL(ref, 'http://site.invalid').origin === 'http://site.invalid';
  } catch {
    return false;
  }
}
