// Unit tests for the pages' Content-Security-Policy (server/site/page-policy.ts): what Astro is told to write into each
// page, and the build's check that every inline script of a page is allowed by that page's own policy.
import { describe, expect, it } from 'vitest';
import { astroCspSetting, scriptHash, scriptsOutsidePolicy } from '../../../server/site/page-policy.ts';
import { SESSION_SCRIPT } from '../../../src/lib/session-script.ts';

const SOURCES = {
  apiOrigin: undefined,
  adScriptOrigin: undefined,
  publicBaseUrl: 'https://capes.example.org',
  premium: { paypal: { url: 'https://www.paypal.com/cgi-bin/webscr' } },
};

/** A built page with a meta policy allowing `allowed` and carrying `scripts` inline. */
function page(allowed: string[], scripts: string[]): string {
  const policy = `default-src 'self'; script-src 'self' ${allowed.map((text) => `'${scriptHash(text)}'`).join(' ')};`;
  return `<!doctype html><html><head><meta http-equiv="content-security-policy" content="${policy.replaceAll("'", '&#39;')}"></head><body>${scripts.map((text) => `<script>${text}</script>`).join('')}<script type="module" src="/_astro/app.js"></script></body></html>`;
}

describe('the pages policy', () => {
  it('allows the session script by its hash, calls to the API and the textures, and forms to the checkout', () => {
    const setting = astroCspSetting({ ...SOURCES, apiOrigin: 'https://api.example.org' });
    expect(setting.scriptDirective.hashes).toEqual([scriptHash(SESSION_SCRIPT)]);
    expect(setting.scriptDirective.resources).toEqual(["'self'"]);
    expect(setting.directives).toContain("connect-src 'self' https://api.example.org https://capes.example.org");
    expect(setting.directives).toContain("form-action 'self' https://www.paypal.com");
    expect(setting.directives.join(';')).not.toContain('frame-ancestors');
  });

  it('lets the ad network in only when ads are on', () => {
    const setting = astroCspSetting({ ...SOURCES, adScriptOrigin: 'https://ads.example' });
    expect(setting.scriptDirective.resources).toContain('https://ads.example');
    expect(setting.directives.find((directive) => directive.startsWith('frame-src'))).toContain(
      'https://googleads.g.doubleclick.net',
    );
  });

  it('finds an inline script its page does not allow, and none when every one is allowed', () => {
    expect(scriptsOutsidePolicy(page(['one()', 'two()'], ['one()', 'two()']))).toEqual([]);
    expect(scriptsOutsidePolicy(page(['one()'], ['one()', 'evil()']))).toEqual([scriptHash('evil()')]);
    expect(scriptsOutsidePolicy('<html><script>one()</script></html>'), 'no policy').toEqual([scriptHash('one()')]);
  });
});
