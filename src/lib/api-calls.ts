// The API calls the site makes: each call's method and path, written once here. Their request and answer schemas are in
// src/lib/schemas/api-calls.ts under the same names; this half holds no zod, so the pages that call the API do not ship
// it.

/** An HTTP method the site calls the API with. */
export type ApiMethod = 'GET' | 'POST' | 'DELETE';

/** Every API call of the site, by name: its method and its path (`:name` marks a path parameter). */
export const API_CALLS = {
  // The current user, the XSRF cookie and the shell's calls.
  currentUser: { method: 'GET', path: '/api/user' },
  xsrfCookie: { method: 'GET', path: '/api/csrf-cookie' },
  homeStats: { method: 'GET', path: '/api/home' },
  contributors: { method: 'GET', path: '/api/contributors' },
  // Account.
  checkAuth: { method: 'POST', path: '/api/account/checkauth' },
  logout: { method: 'POST', path: '/api/account/logout' },
  deleteAccount: { method: 'POST', path: '/api/account/delete' },
  microsoftLogin: { method: 'GET', path: '/api/account/oauth/redirect' },
  microsoftCallback: { method: 'POST', path: '/api/account/oauth/callback' },
  // Apps (launchers, mods): their sign-in codes on /device, and the apps connected to the account.
  deviceSignIn: { method: 'GET', path: '/api/device' },
  deviceApp: { method: 'GET', path: '/api/device/app' },
  approveDevice: { method: 'POST', path: '/api/device/approve' },
  denyDevice: { method: 'POST', path: '/api/device/deny' },
  connectedApps: { method: 'GET', path: '/api/account/apps' },
  revokeApp: { method: 'POST', path: '/api/account/apps/revoke' },
  // Players.
  playerLookup: { method: 'GET', path: '/api/user/search/:id' },
  reportPlayer: { method: 'POST', path: '/api/user/report' },
  // Admin.
  adminInfo: { method: 'GET', path: '/api/admin/info' },
  banReasons: { method: 'GET', path: '/api/admin/banreasons' },
  userBans: { method: 'GET', path: '/api/admin/bans/user' },
  banUser: { method: 'POST', path: '/api/admin/user/ban' },
  unbanUser: { method: 'POST', path: '/api/admin/bans/user/delete' },
  adminUser: { method: 'GET', path: '/api/admin/user/:username' },
  dropUserCache: { method: 'POST', path: '/api/admin/user/cache' },
  deleteUserCape: { method: 'POST', path: '/api/admin/user/cape/delete' },
  deleteUserEars: { method: 'POST', path: '/api/admin/user/ears/delete' },
  deleteUser: { method: 'POST', path: '/api/admin/user/delete' },
  setUserCapeFlags: { method: 'POST', path: '/api/admin/user/profile' },
  userReports: { method: 'GET', path: '/api/admin/reports/user' },
  answerUserReport: { method: 'POST', path: '/api/admin/reports/user' },
  galleryReports: { method: 'GET', path: '/api/admin/reports/gallery' },
  answerGalleryReport: { method: 'POST', path: '/api/admin/reports/gallery' },
  auditLog: { method: 'GET', path: '/api/admin/audit' },
  generateRegistrationCode: { method: 'POST', path: '/api/admin/registration/generate' },
  whitelist: { method: 'GET', path: '/api/admin/gallery/whitelist' },
  unwhitelist: { method: 'POST', path: '/api/admin/gallery/whitelist/delete' },
  aiCapeLogs: { method: 'GET', path: '/api/admin/ai-cape-logs' },
  aiCapeLogImage: { method: 'GET', path: '/api/admin/ai-cape-logs/:id' },
  appClients: { method: 'GET', path: '/api/admin/oauth-clients' },
  removeAppClient: { method: 'POST', path: '/api/admin/oauth-clients/delete' },
  // Premium and boost.
  premiumState: { method: 'GET', path: '/api/premium' },
  premiumInit: { method: 'GET', path: '/api/premium/init' },
  paymentIntent: { method: 'POST', path: '/api/premium/payment/intent' },
  toggleGlint: { method: 'POST', path: '/api/premium/glint' },
  toggleDinnerbone: { method: 'POST', path: '/api/premium/dinnerbone' },
  boostLinkCode: { method: 'POST', path: '/api/premium/boost/discord/generate' },
  boostLinked: { method: 'GET', path: '/api/premium/boost/discord/linked' },
  boostBoosting: { method: 'GET', path: '/api/premium/boost/discord/boosting' },
  boostCosmetics: { method: 'GET', path: '/api/premium/boost/discord/usable' },
  boostCosmetic: { method: 'GET', path: '/api/premium/boost/discord/cosmetic' },
  chooseBoostCosmetic: { method: 'POST', path: '/api/premium/boost/discord/cosmetic' },
  boostUnlink: { method: 'POST', path: '/api/premium/boost/discord/remove' },
  premiumRoleCode: { method: 'POST', path: '/api/premium/discord/generate' },
  // Cape and ears uploads.
  uploadCape: { method: 'POST', path: '/api/upload-cape' },
  removeCape: { method: 'DELETE', path: '/api/upload-cape' },
  uploadEars: { method: 'POST', path: '/api/upload-ears' },
  removeEars: { method: 'DELETE', path: '/api/upload-ears' },
  // Gallery.
  galleryTags: { method: 'GET', path: '/api/gallery/tags' },
  galleryList: { method: 'GET', path: '/api/gallery/get' },
  userGallery: { method: 'GET', path: '/api/gallery/user/:uuid' },
  galleryItem: { method: 'GET', path: '/api/gallery/:hash' },
  galleryPreview: { method: 'GET', path: '/api/gallery/:hash/preview' },
  galleryMap: { method: 'GET', path: '/api/gallery/:hash/preview/map' },
  galleryDownload: { method: 'GET', path: '/api/gallery/:hash/download' },
  likeItem: { method: 'POST', path: '/api/gallery/like' },
  wearItem: { method: 'POST', path: '/api/gallery/wear' },
  // The wardrobe.
  wardrobe: { method: 'GET', path: '/api/wardrobe' },
  wardrobeWear: { method: 'POST', path: '/api/wardrobe/wear' },
  wardrobeTakeOff: { method: 'POST', path: '/api/wardrobe/take-off' },
  wardrobeRemove: { method: 'POST', path: '/api/wardrobe/remove' },
  wardrobeRename: { method: 'POST', path: '/api/wardrobe/rename' },
  deleteItem: { method: 'POST', path: '/api/gallery/delete' },
  reportItem: { method: 'POST', path: '/api/gallery/report' },
  editItem: { method: 'POST', path: '/api/gallery/edit' },
  galleryUpload: { method: 'POST', path: '/api/gallery/new' },
  // Cape creators.
  aiProvider: { method: 'GET', path: '/api/gallery/ai-cape-creator' },
  aiCape: { method: 'POST', path: '/api/gallery/ai-cape-creator' },
  imageCape: { method: 'POST', path: '/api/gallery/cape-creator' },
  animatedCape: { method: 'POST', path: '/api/gallery/animated-cape-creator' },
  headCape: { method: 'POST', path: '/api/gallery/head-capes/:username/:red/:green/:blue/:brightness/:helmetOverlay' },
  optifineCape: { method: 'POST', path: '/api/gallery/optifine-capes/:name' },
  customOptifineCape: { method: 'POST', path: '/api/gallery/optifine-capes/custom/:top/:bottom/:text/:shadow' },
  bannerCape: { method: 'POST', path: '/api/gallery/banner-capes/:service/:bannerId/:top/:bottom/:alignment' },
  wearCreation: { method: 'POST', path: '/api/gallery/creations/use' },
  shareCreation: { method: 'POST', path: '/api/gallery/creations/share' },
} as const satisfies Record<string, { method: ApiMethod; path: string }>;

/** The name of one of the site's API calls. */
export type ApiCallName = keyof typeof API_CALLS;

/** The path parameters of a path (`/a/:id/:page` → `{id, page}`), each a text, number or flag. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Record<Name, string | number | boolean> & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Record<Name, string | number | boolean>
    : Record<never, never>;

/** The path parameters of a call. */
export type ApiParams<Name extends ApiCallName> = PathParams<(typeof API_CALLS)[Name]['path']>;

/** The path parameters argument of a call: none when its path has none. */
export type ParamsArgument<Name extends ApiCallName> = keyof ApiParams<Name> extends never
  ? []
  : [params: ApiParams<Name>];

/**
 * A call's path with its parameters filled in, each URI-encoded (`playerLookup`, `{id: 'Notch'}` →
 * `/api/user/search/Notch`).
 */
export function apiPath<Name extends ApiCallName>(name: Name, ...[params]: ParamsArgument<Name>): string {
  const values: Record<string, string | number | boolean> = params ?? {};
  return API_CALLS[name].path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(values[key])));
}
