// Reads the `_redirects` and `_headers` files of a built site and applies them to a request path, as a static host
// does: the first redirect rule whose source matches wins, and every headers block that matches adds its headers.
import { fillDestination, sourcePattern, type HeaderRule, type RedirectRule } from './host-rules.ts';

/** A redirect rule with its source compiled. */
interface CompiledRedirect extends RedirectRule {
  pattern: RegExp;
}

/** Where a path goes by the redirect rules: a page to serve (200) or a location to send the client to. */
export interface RedirectMatch {
  status: 200 | 301 | 302;
  to: string;
  /** The source of the rule that matched. */
  from: string;
}

/** The rules of one built site, ready to apply. */
export interface HostRuleSet {
  /** Where the first matching redirect rule sends `path`, or null when none matches. */
  redirect(path: string): RedirectMatch | null;
  /** The headers of an answer for `path`: every matching block's, a header named twice joined by a comma. */
  headers(path: string): Record<string, string>;
}

/** Parses a `_redirects` file (`from to [status]` per line, `#` comments); an unknown status reads as 302. */
export function parseRedirects(text: string): RedirectRule[] {
  const rules: RedirectRule[] = [];
  for (const line of text.split('\n')) {
    const [from, to, code] = line.trim().split(/\s+/);
    if (!from || from.startsWith('#') || !to) continue;
    const status = Number(code ?? 302);
    rules.push({ from, to, status: status === 200 || status === 301 ? status : 302 });
  }
  return rules;
}

/** Parses a `_headers` file: a path at the start of a line, then `Name: value` lines indented below it. */
export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(':');
    const current = rules.at(-1);
    if (current && colon > 0) current.headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/** Compiles parsed rules into the two lookups a server needs. */
export function hostRuleSet(redirects: readonly RedirectRule[], headerRules: readonly HeaderRule[]): HostRuleSet {
  const compiled: CompiledRedirect[] = redirects.map((rule) => ({
    ...rule,
    pattern: sourcePattern(rule.from),
  }));
  const headerPatterns = headerRules.map((rule) => ({ pattern: sourcePattern(rule.path), headers: rule.headers }));
  return {
    redirect(path) {
      for (const rule of compiled) {
        const found = rule.pattern.exec(path);
        if (!found) continue;
        const to = fillDestination(rule, found.slice(1));
        return { status: rule.status, to, from: rule.from };
      }
      return null;
    },
    headers(path) {
      const combined: Record<string, string> = {};
      for (const rule of headerPatterns) {
        if (!rule.pattern.test(path)) continue;
        for (const [name, value] of Object.entries(rule.headers))
          combined[name] = combined[name] === undefined ? value : `${combined[name]}, ${value}`;
      }
      return combined;
    },
  };
}
