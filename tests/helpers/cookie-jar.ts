// A browser-like cookie jar over fetch: keeps Set-Cookie values, sends Cookie and echoes XSRF-TOKEN in x-xsrf-token.

/** One Set-Cookie header, split into its name, value and attributes (lower-cased names). */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

/** Parses one Set-Cookie header value. */
export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const index = part.indexOf('=');
    const key = (index < 0 ? part : part.slice(0, index)).trim().toLowerCase();
    attributes.set(key, index < 0 ? '' : part.slice(index + 1).trim());
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

/** The Set-Cookie header of a response for one cookie name, parsed, or undefined. */
export function findSetCookie(response: Response, name: string): SetCookie | undefined {
  return response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((cookie) => cookie.name === name);
}

function isExpired(cookie: SetCookie): boolean {
  const maxAge = cookie.attributes.get('max-age');
  if (maxAge !== undefined && Number(maxAge) <= 0) return true;
  const expires = cookie.attributes.get('expires');
  return expires !== undefined && Date.parse(expires) <= Date.now();
}

/** A cookie jar for one simulated browser talking to one site. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /** Keeps (or removes, when expired) every cookie a response sets. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      if (isExpired(cookie)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  /** The stored (raw) value of a cookie. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Sets a cookie by hand (e.g. an old session token). */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** Sends a request like the site's API client: cookies, x-xsrf-token from XSRF-TOKEN, JSON body. */
  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const sent = new Headers({ accept: 'application/json', ...headers });
    if (this.cookies.size > 0)
      sent.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf !== undefined && !sent.has('x-xsrf-token')) sent.set('x-xsrf-token', decodeURIComponent(xsrf));
    if (body !== undefined) sent.set('content-type', 'application/json');
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    this.store(response);
    return response;
  }

  /** GET through the jar. */
  get(path: string): Promise<Response> {
    return this.request('GET', path);
  }

  /** POST a JSON body through the jar. */
  post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Response> {
    return this.request('POST', path, body, headers);
  }

  /** Sends a multipart form like the upload pages (fetch sets the boundary); `xsrf: false` leaves out x-xsrf-token. */
  async sendForm(
    method: string,
    path: string,
    form: FormData,
    options: { headers?: Record<string, string>; xsrf?: boolean } = {},
  ): Promise<Response> {
    const sent = new Headers({ accept: 'application/json', ...options.headers });
    if (this.cookies.size > 0)
      sent.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (options.xsrf !== false && xsrf !== undefined && !sent.has('x-xsrf-token'))
      sent.set('x-xsrf-token', decodeURIComponent(xsrf));
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: sent,
      body: form,
      redirect: 'manual',
    });
    this.store(response);
    return response;
  }

  /** POSTs bytes as the multipart file field `file` (or `field`), like the cape and ears upload pages. */
  upload(
    path: string,
    bytes: Uint8Array,
    options: {
      field?: string;
      filename?: string;
      type?: string;
      headers?: Record<string, string>;
      xsrf?: boolean;
    } = {},
  ): Promise<Response> {
    const form = new FormData();
    form.append(
      options.field ?? 'file',
      new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
      options.filename ?? 'texture.png',
    );
    return this.sendForm('POST', path, form, options);
  }
}
