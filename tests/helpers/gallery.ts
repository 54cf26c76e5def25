// Shared setup of the gallery API suites: the per-backend server, fresh textures, the refusal images and the upload,
// item and row helpers.
import sharp from 'sharp';
import { expect } from 'vitest';
import type { GalleryItem } from '../../src/lib/schemas/types.ts';
import type { Backend } from '../../support/backends.ts';
import { animatedGif, frameColour, padPng, solidGif, solidPng, type Rgba } from '../../support/textures.ts';
import type { CookieJar } from './cookie-jar.ts';
import { serverForSuite, type loginNewUser } from './server.ts';

/** A well-formed hash no gallery item has. */
export const UNKNOWN_HASH = 'f'.repeat(64);
/** A texture URL as the API answers it; the first group is the texture hash. */
export const TEXTURE_URL = /^https?:\/\/[^/]+\/textures\/([0-9a-f]{64})$/;

/** A logged-in user as loginNewUser answers it. */
export type User = Awaited<ReturnType<typeof loginNewUser>>;

/** A gallery item as the API answers it. */
export type Item = GalleryItem;

/** Makes the fixed images for the upload rejection cases (call once, in a beforeAll). */
export async function makeRefusalImages(): Promise<Record<string, Buffer>> {
  return {
    tooBig: padPng(await solidPng(64, 32, [1, 1, 1, 255]), 500_001),
    maxBytes: padPng(await solidPng(64, 32, [2, 2, 2, 255]), 500_000),
    text: Buffer.from('Not an image at all.\n'.repeat(20)),
    jpeg: await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .jpeg()
      .toBuffer(),
    invalidPng: (await solidPng(128, 64)).subarray(0, 60),
    wrongRatio: await solidPng(64, 33),
    square: await solidPng(64, 64),
    squareGif: await solidGif(64, 64),
    tooLarge: await solidPng(4096, 2048),
    notMultiple: await solidPng(66, 33),
    ears14x10: await solidPng(14, 10),
    ears15x7: await solidPng(15, 7),
    bombGif: await animatedGif(64, 32, 65),
  };
}

/** The error text of a refusal: `{error}` or `{message, errors}`. */
export function errorText(body: Record<string, unknown>): unknown {
  return body.error ?? body.message;
}

/**
 * Gives a gallery describe block its server on a backend (generous login and upload limits) and the helpers that work
 * on it.
 */
/** The fields of the gallery upload form (POST /api/gallery/new). */
export interface GalleryFormFields {
  title?: string;
  /** Sent as JSON unless a string. */
  tags?: string[] | string;
  file?: Buffer;
  /** The file's type, image/png unless given. */
  type?: string;
}

/** The gallery upload form; any of title, tags and file may be left out. */
export function galleryForm(fields: GalleryFormFields): FormData {
  const form = new FormData();
  if (fields.title !== undefined) form.append('title', fields.title);
  if (fields.tags !== undefined)
    form.append('tags', typeof fields.tags === 'string' ? fields.tags : JSON.stringify(fields.tags));
  if (fields.file) {
    const type = fields.type ?? 'image/png';
    form.append(
      'file',
      new Blob([new Uint8Array(fields.file)], { type }),
      type === 'image/gif' ? 'texture.gif' : 'texture.png',
    );
  }
  return form;
}

export function gallerySuite(backend: Backend) {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', GALLERY_UPLOADS_PER_10_MINUTES: '1000' });
  let colour = 0;

  /** A frame colour no other test on this server uses. */
  function nextColour(): Rgba {
    return frameColour(colour++);
  }

  /** A 64 x 32 cape in a colour no other test on this server uses. */
  function freshCape(): Promise<Buffer> {
    return solidPng(64, 32, nextColour());
  }

  /** 14 x 7 ears in a colour no other test on this server uses. */
  function freshEars(): Promise<Buffer> {
    return solidPng(14, 7, nextColour());
  }

  /** Sends the gallery upload form; any of title, tags (sent as JSON unless a string) and file may be left out. */
  function sendNew(jar: CookieJar, fields: GalleryFormFields, options: { xsrf?: boolean } = {}) {
    return jar.sendForm('POST', '/api/gallery/new', galleryForm(fields), options);
  }

  /** Uploads a texture that must be accepted as new (201); returns its hash. */
  async function upload(
    jar: CookieJar,
    file: Buffer,
    title = 'My texture',
    tags: string[] = ['cute'],
    type?: string,
  ): Promise<string> {
    const response = await sendNew(jar, { title, tags, file, type });
    const body = (await response.json()) as { success: boolean; hash: string; existing: boolean };
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body).toEqual({ success: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/), existing: false });
    return body.hash;
  }

  /** Fetches one gallery item, which must exist (200). */
  async function getItem(jar: CookieJar, hash: string): Promise<Item> {
    const response = await jar.get(`/api/gallery/${hash}`);
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body as Item;
  }

  /** The listing total for the given filters (each sent as JSON). */
  async function total(jar: CookieJar, params: Record<string, string[]> = {}): Promise<number> {
    const search = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)]));
    const response = await jar.get(`/api/gallery/get?${search}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { total: number }).total;
  }

  /** Fetches a texture path from the server without a session. */
  function fetchTexture(path: string): Promise<Response> {
    return fetch(new URL(path, suite.server.url));
  }

  /** Counts the rows of a gallery table, all or those of one hash. */
  async function rows(
    table: 'gallery_items' | 'textures' | 'gallery_tags' | 'gallery_likes' | 'gallery_reports',
    hash?: string,
  ): Promise<number> {
    let query = suite.server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (hash) query = query.where('hash', '=', hash);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  /** The row counts of items, textures and tags, to check that a refusal stored nothing. */
  async function snapshot() {
    return { items: await rows('gallery_items'), textures: await rows('textures'), tags: await rows('gallery_tags') };
  }

  /** Checks that an answer is a refusal with the given status and message. */
  async function expectRefused(response: Response, status: number, message: string): Promise<void> {
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(status);
    expect(errorText(body)).toBe(message);
  }

  return {
    suite,
    nextColour,
    freshCape,
    freshEars,
    sendNew,
    upload,
    getItem,
    total,
    fetchTexture,
    rows,
    snapshot,
    expectRefused,
  };
}
