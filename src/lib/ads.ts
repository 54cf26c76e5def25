// The ad network, for the pages (src/lib/site.ts) and the server's Content-Security-Policy (server/config/index.ts).

/** The ad network's script, which the ad slots load when an ad client is configured (PUBLIC_AD_SCRIPT_URL moves it). */
export const DEFAULT_AD_SCRIPT_URL = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';
