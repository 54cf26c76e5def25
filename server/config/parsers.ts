// Parsers of the environment values: yes/no flags, lists, uuids, milliseconds and prices, TRUST_PROXY, and the allowed
// hosts of AI_IMAGE_HOSTS.
import net from 'node:net';
import { z } from 'zod';
import { BOOLEAN_TEXTS, isTrueText } from '../../src/lib/boolean-text.ts';
import { normalizeUuid } from '../../src/lib/ids.ts';

/**
 * Whose X-Forwarded-* headers to believe: nobody (false), the nearest N proxies, or proxies at these addresses/CIDRs.
 */
export type TrustProxy = false | number | string[];

/** Whether a TRUST_PROXY list entry is an IP address or a CIDR block. */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = net.isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Whether an allow-list entry is a host name or an http(s) origin. */
export function isHostOrOrigin(entry: string): boolean {
  if (!entry.includes('://')) return /^[a-z0-9.-]+$/i.test(entry) || net.isIP(entry.replace(/^\[|\]$/g, '')) !== 0;
  try {
    const url = new URL(entry);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/**
 * TRUST_PROXY: off, a hop count (`1`, `2`), a list of proxy addresses/CIDRs, or `true` (read as one hop, with a
 * warning).
 */
export const trustProxySetting = z
  .string()
  .optional()
  .transform((value, context): { trust: TrustProxy; warning?: string } => {
    const text = (value ?? '').trim();
    if (text === '' || text === 'false' || text === '0') return { trust: false };
    if (/^\d+$/.test(text)) return { trust: Number(text) };
    if (text === 'true') {
      return {
        trust: 1,
        warning:
          'TRUST_PROXY=true is read as TRUST_PROXY=1 (trust the nearest proxy only); set the number of proxies or their addresses',
      };
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrCidr(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `expected a hop count (1, 2), or comma-separated proxy addresses or CIDRs; not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
      });
      return z.NEVER;
    }
    return { trust: entries };
  });

/** TRUST_PROXY as Fastify's trustProxy option: a hop count becomes "trust the nearest N addresses". */
export function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** A yes/no setting: `true`, `false`, `1`, `0` or empty. */
export const flag = z
  .enum([...BOOLEAN_TEXTS, ''])
  .optional()
  .transform(isTrueText);

/** A comma-separated list, its items trimmed and empty ones dropped. */
export const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** Comma-separated player uuids (dashes allowed), each as stored: 32 lowercase hex digits. */
export const uuidList = list.transform((items, context) => {
  const bad = items.filter((item) => normalizeUuid(item) === null);
  if (bad.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `expected player uuids, not ${bad.map((item) => JSON.stringify(item)).join(', ')}`,
    });
    return z.NEVER;
  }
  return items.map((item) => normalizeUuid(item)!);
});

/** A whole number of milliseconds, 0 or more. */
export const milliseconds = z.coerce.number().int().min(0);
/** A price with two decimals, as the payment providers take it. */
export const price = z.string().regex(/^\d{1,6}\.\d{2}$/, { message: 'a price with two decimals, such as 4.99' });
