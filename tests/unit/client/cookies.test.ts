// Unit tests for the browser cookie helper (src/lib/client/cookies.ts): duration units, defaults, forbidden names and
// reading.
import { describe, expect, it } from 'vitest';
import {
  durationToSeconds,
  isAllowedCookieName,
  readCookie,
  serializeCookie,
} from '../../../src/lib/client/cookies.ts';

const DAY = 86400;
const NOW = new Date('2024-03-01T12:00:00Z');

/** Splits a serialized cookie into its name=value pair and a lower-cased attribute map. */
function parse(cookie: string): { pair: string; attributes: Map<string, string> } {
  const [pair = '', ...rest] = cookie.split(';').map((part) => part.trim());
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const index = part.indexOf('=');
    attributes.set((index < 0 ? part : part.slice(0, index)).toLowerCase(), index < 0 ? '' : part.slice(index + 1));
  }
  return { pair, attributes };
}

describe('durationToSeconds', () => {
  it('knows the duration units: y is 360 days, m is 30 days, then d, h, min, s', () => {
    expect(durationToSeconds('1y')).toBe(360 * DAY);
    expect(durationToSeconds('2y')).toBe(720 * DAY);
    expect(durationToSeconds('1m')).toBe(30 * DAY);
    expect(durationToSeconds('3m')).toBe(90 * DAY);
    expect(durationToSeconds('1d')).toBe(DAY);
    expect(durationToSeconds('7d')).toBe(7 * DAY);
    expect(durationToSeconds('12h')).toBe(12 * 3600);
    expect(durationToSeconds('10min')).toBe(600);
    expect(durationToSeconds('45s')).toBe(45);
    expect(durationToSeconds('0s')).toBe(0);
  });

  it('does not read m as minutes', () => {
    expect(durationToSeconds('5m')).not.toBe(300);
    expect(durationToSeconds('5min')).toBe(300);
  });

  it('takes a number as seconds', () => {
    expect(durationToSeconds(86400)).toBe(DAY);
    expect(durationToSeconds(0)).toBe(0);
    expect(durationToSeconds(90.9)).toBe(90);
  });

  it('throws on invalid durations', () => {
    for (const value of [
      '',
      'abc',
      'd',
      '1w',
      '1 week',
      '-1d',
      '1.5d',
      '1D',
      'min',
      '10mins',
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      expect(() => durationToSeconds(value), String(value)).toThrow(/Invalid cookie duration/);
    }
  });
});

describe('serializeCookie', () => {
  it('defaults to a 1-day expiry, path /, SameSite=Lax and not Secure', () => {
    const { pair, attributes } = parse(serializeCookie('server_advert', 'seen', {}, NOW));
    expect(pair).toBe('server_advert=seen');
    expect(attributes.get('expires')).toBe('Sat, 02 Mar 2024 12:00:00 GMT');
    expect(attributes.get('max-age')).toBe(String(DAY));
    expect(attributes.get('path')).toBe('/');
    expect(attributes.get('samesite')).toBe('Lax');
    expect(attributes.has('secure')).toBe(false);
    expect(attributes.has('domain')).toBe(false);
  });

  it('uses the given expiry', () => {
    const { attributes } = parse(serializeCookie('a', 'b', { expires: '1y' }, NOW));
    expect(attributes.get('max-age')).toBe(String(360 * DAY));
    expect(attributes.get('expires')).toBe(new Date(NOW.getTime() + 360 * DAY * 1000).toUTCString());
    expect(parse(serializeCookie('a', 'b', { expires: 30 }, NOW)).attributes.get('expires')).toBe(
      'Fri, 01 Mar 2024 12:00:30 GMT',
    );
  });

  it('adds secure, a custom path, a domain and SameSite when asked', () => {
    const { attributes } = parse(
      serializeCookie('a', 'b', { secure: true, path: '/gallery', domain: 'site.example', sameSite: 'Strict' }, NOW),
    );
    expect(attributes.has('secure')).toBe(true);
    expect(attributes.get('path')).toBe('/gallery');
    expect(attributes.get('domain')).toBe('site.example');
    expect(attributes.get('samesite')).toBe('Strict');
  });

  it('encodes the value so that separators cannot inject attributes', () => {
    const cookie = serializeCookie('note', 'a b;c=d,é', {}, NOW);
    const { pair, attributes } = parse(cookie);
    expect(pair).toBe('note=a%20b%3Bc%3Dd%2C%C3%A9');
    expect(attributes.has('c')).toBe(false);
    expect(readCookie(pair, 'note')).toBe('a b;c=d,é');
  });

  it('throws for the forbidden names, in any case', () => {
    for (const name of [
      'expires',
      'Expires',
      'max-age',
      'Max-Age',
      'path',
      'PATH',
      'domain',
      'Domain',
      'secure',
      'SECURE',
      'SameSite',
      'samesite',
    ]) {
      expect(() => serializeCookie(name, 'x', {}, NOW), name).toThrow(/Forbidden cookie name/);
      expect(isAllowedCookieName(name), name).toBe(false);
    }
  });

  it('throws for empty names and names with separators', () => {
    for (const name of ['', 'a b', 'a=b', 'a;b']) expect(() => serializeCookie(name, 'x', {}, NOW), name).toThrow();
  });

  it('accepts ordinary names', () => {
    for (const name of ['server_advert', 'XSRF-TOKEN', 'expires2', 'my.path'])
      expect(isAllowedCookieName(name), name).toBe(true);
  });
});

describe('readCookie', () => {
  const header = 'theme=dark; XSRF-TOKEN=abc%3D%3D; XSRF-TOKEN2=other;  spaced = yes ; empty=';

  it('reads and decodes a cookie by exact name', () => {
    expect(readCookie(header, 'XSRF-TOKEN')).toBe('abc==');
    expect(readCookie(header, 'XSRF-TOKEN2')).toBe('other');
    expect(readCookie(header, 'theme')).toBe('dark');
    expect(readCookie(header, 'spaced')).toBe('yes');
    expect(readCookie(header, 'empty')).toBe('');
  });

  it('answers undefined for a missing cookie', () => {
    expect(readCookie(header, 'missing')).toBeUndefined();
    expect(readCookie(header, 'XSRF')).toBeUndefined();
    expect(readCookie('', 'theme')).toBeUndefined();
  });

  it('returns a malformed percent-encoding as it is', () => {
    expect(readCookie('bad=%E0%A4%A', 'bad')).toBe('%E0%A4%A');
  });
});
