// A stand-in for the ad network's script (PUBLIC_AD_SCRIPT_URL): like the real adsbygoogle.js, it takes the pushes the
// page queued in `window.adsbygoogle` and fills each unfilled `ins.adsbygoogle` of the page, here with a labelled test
// ad.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The stand-in's script path, as the real network serves it. */
export const AD_SCRIPT_PATH = '/pagead/js/adsbygoogle.js';
/** The text of the ad the stand-in puts in a slot. */
export const STAND_IN_AD_TEXT = 'Test ad from the ad network';

const SCRIPT = `(function () {
  function fill() {
    document.querySelectorAll('ins.adsbygoogle:not([data-adsbygoogle-status])').forEach(function (slot) {
      slot.setAttribute('data-adsbygoogle-status', 'done');
      slot.textContent = ${JSON.stringify(STAND_IN_AD_TEXT)};
    });
  }
  var queued = window.adsbygoogle || [];
  window.adsbygoogle = { loaded: true, push: fill };
  if (queued.length > 0) fill();
})();
`;

/** A running ad network stand-in. */
export interface AdNetworkStandIn {
  /** Where the script is, for PUBLIC_AD_SCRIPT_URL. */
  scriptUrl: string;
  /** The ad clients the script was asked for, in order. */
  clients: string[];
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1 (port 0 picks a free one). */
export async function startAdNetworkStandIn(options: { port?: number } = {}): Promise<AdNetworkStandIn> {
  const clients: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method !== 'GET' || url.pathname !== AD_SCRIPT_PATH) return response.writeHead(404).end();
    clients.push(url.searchParams.get('client') ?? '');
    // The page loads the script with crossorigin="anonymous", so it needs CORS, as the real network sends.
    response
      .writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
      })
      .end(SCRIPT);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    scriptUrl: `http://127.0.0.1:${port}${AD_SCRIPT_PATH}`,
    clients,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
