// Every call to an outside service (the game's services, OptiFine, the images API, Microsoft and Xbox, PayPal, Stripe)
// goes through fetchOutside: its answer is read as a stream and no further than a cap, within a timeout, and any way it
// can fail (no connection, no answer in time, too long, a bad status, a body that does not parse, an address that is
// not allowed) is one OutsideServiceError, whose detail is for the log only. An address taken from an outside answer is
// checked by one rule (allowed hosts, http(s), no private addresses) before it is fetched, and at every redirect.
import dns from 'node:dns/promises';
import net from 'node:net';
import { OutsideServiceError } from '../../src/lib/outside-service.ts';

/** The most bytes read of an image an outside service answers with (a skin, a cape). */
export const OUTSIDE_IMAGE_MAX_BYTES = 1024 * 1024;
/** The most bytes read of a JSON or text answer. */
export const OUTSIDE_JSON_MAX_BYTES = 64 * 1024;
/** How many redirects are followed for an address from an outside answer (each one checked by its rule). */
const MAX_REDIRECTS = 3;
/** How much of a body the log shows. */
const EXCERPT_CHARS = 200;

/**
 * Where an address taken from an outside answer may point: these hosts (a name, or an origin such as
 * `http://host:port`), and private addresses only when allowed.
 */
export interface OutsideAddressRule {
  hosts: string[];
  allowPrivate: boolean;
}

/** One outside call. */
export interface OutsideRequest {
  /** The service's name in the log, e.g. "The Mojang API". */
  service: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  /** The most bytes of the answer read (OUTSIDE_IMAGE_MAX_BYTES, OUTSIDE_JSON_MAX_BYTES, or a service's own). */
  maxBytes: number;
  /** How long the whole call, body included, may take. */
  timeoutMs: number;
  /** The caller's signal: when it aborts, the call stops with its reason (not an OutsideServiceError). */
  signal?: AbortSignal;
  /**
   * For an address taken from an outside answer: checked before it is fetched, and redirects are followed while they
   * pass it. Without a rule (a configured address) a redirect is answered to the caller as it is.
   */
  rule?: OutsideAddressRule;
}

/** An outside service's answer: status, headers and the body (read whole, within the cap). */
export class OutsideAnswer {
  constructor(
    readonly service: string,
    readonly status: number,
    readonly headers: Headers,
    readonly body: Buffer,
  ) {}

  /** Whether the status is 2xx. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The body as UTF-8 text. */
  text(): string {
    return this.body.toString('utf8');
  }

  /** The body parsed as JSON; an OutsideServiceError when it does not parse. */
  json(): unknown {
    try {
      return JSON.parse(this.text()) as unknown;
    } catch {
      throw this.unexpected('a body that is not JSON');
    }
  }

  /** The body parsed as JSON, or null when it does not parse (for error answers whose body is only a hint). */
  jsonOrNull(): unknown {
    try {
      return JSON.parse(this.text()) as unknown;
    } catch {
      return null;
    }
  }

  /**
   * The error for an answer the caller cannot use: its status, what was wrong, and the start of its body (for the log).
   */
  unexpected(what = `status ${this.status}`): OutsideServiceError {
    return new OutsideServiceError(
      this.service,
      this.ok ? 'body' : 'status',
      `answered ${what} (HTTP ${this.status}): ${excerpt(this.body)}`,
    );
  }
}

/** The start of a body, printable, for the log. */
function excerpt(body: Buffer): string {
  const text = body
    .subarray(0, EXCERPT_CHARS * 4)
    .toString('utf8')
    .slice(0, EXCERPT_CHARS);
  // eslint-disable-next-line no-control-regex
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return printable === '' ? '(empty)' : `${printable}${body.length > Buffer.byteLength(text) ? '…' : ''}`;
}

/** A network error's cause (undici puts the reason, e.g. ECONNREFUSED, there) for the log. */
function causeText(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (!cause) return '';
  return ` (${typeof cause.code === 'string' ? cause.code : String(cause.message)})`;
}

/**
 * Address ranges no address from an outside answer may reach unless allowed: loopback, private, link-local, shared,
 * reserved.
 */
const PRIVATE_RANGES = (() => {
  const list = new net.BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const)
    list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of [
    ['::', 127],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const)
    list.addSubnet(network, prefix, 'ipv6');
  return list;
})();

/**
 * Whether an IP address is loopback, private, link-local or otherwise not on the public internet (IPv4-mapped IPv6
 * included).
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE_RANGES.check(mapped[1]!, 'ipv4');
  const version = net.isIP(address);
  if (version === 0) return true;
  return PRIVATE_RANGES.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a URL's host is one the rule names (a bare host name matches any port; an origin matches exactly). */
function hostAllowed(url: URL, hosts: string[]): boolean {
  return hosts.some((host) =>
    host.includes('://') ? new URL(host).origin === url.origin : host.toLowerCase() === url.hostname.toLowerCase(),
  );
}

/**
 * Checks an address taken from an outside answer against its rule: it must parse, be http(s), be on an allowed host,
 * and (unless allowed) neither name nor resolve to a private address. Returns the URL; throws OutsideServiceError
 * ('address').
 */
export async function checkOutsideAddress(service: string, address: string, rule: OutsideAddressRule): Promise<URL> {
  const refuse = (why: string) => new OutsideServiceError(service, 'address', why);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse(`pointed at an address that does not parse: ${address.slice(0, EXCERPT_CHARS)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`pointed at ${url.protocol}, not http(s)`);
  if (!hostAllowed(url, rule.hosts)) throw refuse(`pointed at ${url.origin}, which is not an allowed host`);
  if (rule.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [host]
    : await dns.lookup(host, { all: true }).then(
        (found) => found.map((entry) => entry.address),
        () => [],
      );
  if (addresses.length === 0) throw refuse(`pointed at ${url.origin}, whose name does not resolve`);
  const refused = addresses.find(isPrivateAddress);
  if (refused) throw refuse(`pointed at ${url.origin}, a private address (${refused})`);
  return url;
}

/** Reads a body as a stream, stopping (and cancelling the rest) once it passes `maxBytes`. */
async function readCapped(service: string, response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new OutsideServiceError(service, 'too long', `answered ${declared} bytes, more than the ${maxBytes} read`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new OutsideServiceError(
        service,
        'too long',
        `answered more than the ${maxBytes} bytes read (HTTP ${response.status})`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length);
}

/**
 * Makes one outside call and reads its answer within `maxBytes` and `timeoutMs`. Any status is answered (the caller
 * decides what it means, and uses `answer.unexpected()` for one it cannot use); no connection, no answer in time, a
 * body over the cap and an address the rule refuses are an OutsideServiceError. The caller's abort rethrows its reason.
 */
export async function fetchOutside(request: OutsideRequest): Promise<OutsideAnswer> {
  const { service, signal } = request;
  signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    let url = request.rule ? (await checkOutsideAddress(service, request.url, request.rule)).href : request.url;
    for (let redirects = 0; ; redirects++) {
      const body = request.body instanceof Uint8Array ? new Uint8Array(request.body) : request.body;
      const response = await fetch(url, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
        signal: combined,
      });
      const location = response.headers.get('location');
      if (request.rule && response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        if (redirects === MAX_REDIRECTS)
          throw new OutsideServiceError(service, 'status', `redirected more than ${MAX_REDIRECTS} times`);
        url = (await checkOutsideAddress(service, new URL(location, url).href, request.rule)).href;
        continue;
      }
      return new OutsideAnswer(
        service,
        response.status,
        response.headers,
        await readCapped(service, response, request.maxBytes),
      );
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof OutsideServiceError) throw error;
    if (timeout.aborted)
      throw new OutsideServiceError(service, 'timeout', `no answer within ${request.timeoutMs} ms`, { cause: error });
    throw new OutsideServiceError(
      service,
      'unreachable',
      `could not be reached: ${(error as Error).message}${causeText(error)}`,
      { cause: error },
    );
  }
}

/** The request a library hands a fetch-compatible function. */
interface LibraryRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams | ArrayBuffer | ReadableStream | null;
  signal?: AbortSignal | null;
}

/**
 * A fetch-compatible function over fetchOutside (for libraries that take one, such as openid-client): the answer comes
 * back as a Response.
 */
export function cappedFetch(
  service: string,
  limits: { maxBytes: number; timeoutMs: number },
): (url: string, init: LibraryRequest) => Promise<Response> {
  return async (url, init) => {
    const { body } = init;
    if (body instanceof ReadableStream) throw new TypeError('a streamed request body is not supported');
    const answer = await fetchOutside({
      service,
      url,
      method: init.method,
      headers: init.headers,
      body: body instanceof ArrayBuffer ? new Uint8Array(body) : (body ?? undefined),
      signal: init.signal ?? undefined,
      ...limits,
    });
    const empty =
      answer.status === 204 ||
      answer.status === 304 ||
      (answer.status >= 300 && answer.status < 400 && answer.body.length === 0);
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  };
}
