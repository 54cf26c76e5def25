// Unit tests for the route table (src/lib/routes.ts): which page serves a path, auth flags, titles and safe login refs.
import { describe, expect, it } from 'vitest';
import { findRoute, isSafeRef, loginUrlFor, normalizePath, pageTitle, routeByName } from '../../../src/lib/routes.ts';

const HASH = '0123456789abcdef'.repeat(4);
const UUID = '0123456789abcdef'.repeat(2);

/** Every static page path with the route that must serve it and its auth flag. */
const STATIC_ROUTES: Array<[path: string, name: string, auth: boolean]> = [
  ['/', 'home', false],
  ['/upload-cape', 'upload-cape', true],
  ['/upload-ears', 'upload-ears', true],
  ['/upload-cape/template', 'upload-cape-template', false],
  ['/upload-ears/template', 'upload-ears-template', false],
  ['/premium', 'premium', false],
  ['/premium/boost', 'premium-boost', true],
  ['/download', 'download', false],
  ['/user', 'user', false],
  ['/gallery', 'gallery', true],
  ['/gallery/new', 'gallery-new', true],
  ['/gallery/ai-cape-creator', 'ai-cape-creator', true],
  ['/gallery/animated-cape-creator', 'animated-cape-creator', true],
  ['/gallery/cape-creator', 'cape-creator', true],
  ['/gallery/minecon-capes', 'minecon-capes', true],
  ['/gallery/java-capes', 'java-capes', true],
  ['/gallery/bedrock-capes', 'bedrock-capes', true],
  ['/gallery/banner-capes', 'banner-capes', true],
  ['/gallery/head-capes', 'head-capes', true],
  ['/gallery/optifine-capes', 'optifine-capes', true],
  ['/help', 'help', false],
  ['/help/mods', 'help-mods', false],
  ['/auth', 'auth', false],
  ['/account/login', 'login', false],
  ['/account/login/minecraft', 'login-minecraft', false],
  ['/account/delete', 'account-delete', true],
  ['/account/apps', 'account-apps', true],
  // A visitor is asked to log in on the page itself, told which app the code is for.
  ['/device', 'device', false],
  ['/legal', 'legal', false],
  ['/legal/terms', 'legal-terms', false],
  ['/legal/privacy', 'legal-privacy', false],
  ['/legal/rules', 'legal-rules', false],
  ['/admin', 'admin', true],
  ['/admin/registration/generate', 'admin-registration', true],
  ['/admin/bans/user', 'admin-bans', true],
  ['/admin/gallery/whitelist', 'admin-whitelist', true],
  ['/admin/reports/user', 'admin-user-reports', true],
  ['/admin/reports/gallery', 'admin-gallery-reports', true],
  ['/admin/edit-user', 'admin-edit-user', true],
  ['/admin/ai-cape-logs', 'admin-ai-cape-logs', true],
  ['/admin/audit', 'admin-audit', true],
];

describe('findRoute: the static page routes', () => {
  it.each(STATIC_ROUTES)('%s is served by %s (auth %s)', (path, name, auth) => {
    const route = findRoute(path);
    expect(route?.name).toBe(name);
    expect(route?.auth).toBe(auth);
    expect(route?.title.length).toBeGreaterThan(0);
  });

  it('gives every static route its own page', () => {
    const pages = STATIC_ROUTES.map(([path]) => findRoute(path)!.page);
    expect(new Set(pages).size).toBe(pages.length);
  });
});

describe('findRoute: dynamic routes', () => {
  it('takes /gallery/{64 lowercase hex} as one texture', () => {
    expect(findRoute(`/gallery/${HASH}`)?.name).toBe('gallery-item');
    expect(findRoute(`/gallery/${HASH}`)?.auth).toBe(true);
  });

  it('takes /gallery/{32 lowercase hex} as a user gallery', () => {
    expect(findRoute(`/gallery/${UUID}`)?.name).toBe('gallery-user');
    expect(findRoute(`/gallery/${UUID}`)?.auth).toBe(true);
  });

  it('does not take /gallery/new or the creator pages as a hash', () => {
    expect(findRoute('/gallery/new')?.name).toBe('gallery-new');
    expect(findRoute('/gallery/cape-creator')?.name).toBe('cape-creator');
  });

  it('refuses upper-case hex and hashes of the wrong length', () => {
    expect(findRoute(`/gallery/${HASH.toUpperCase()}`)).toBeUndefined();
    expect(findRoute(`/gallery/${UUID.toUpperCase()}`)).toBeUndefined();
    expect(findRoute(`/gallery/${HASH.slice(1)}`)).toBeUndefined();
    expect(findRoute(`/gallery/${HASH}0`)).toBeUndefined();
    expect(findRoute(`/gallery/${UUID.slice(1)}`)).toBeUndefined();
    expect(findRoute(`/gallery/${'g'.repeat(64)}`)).toBeUndefined();
  });

  it('serves player lookup and report with and without a name', () => {
    expect(findRoute('/user')?.name).toBe('user');
    expect(findRoute('/user/SomeName')?.name).toBe('user');
    expect(findRoute(`/user/${UUID}`)?.name).toBe('user');
    expect(findRoute('/user/SomeName')?.auth).toBe(false);
    expect(findRoute('/user/x/report')?.name).toBe('user-report');
    expect(findRoute('/user/x/report')?.auth).toBe(true);
    expect(findRoute('/user/report')?.name).toBe('user-report');
  });

  it('serves /premium/success from the premium page', () => {
    const route = findRoute('/premium/success');
    expect(route?.name).toBe('premium');
    expect(route?.page).toBe('/premium');
    expect(route?.auth).toBe(false);
    expect(findRoute('/premium/other')).toBeUndefined();
  });

  it('serves /download with a platform and a version', () => {
    expect(findRoute('/download/fabric')?.name).toBe('download');
    expect(findRoute('/download/fabric/1.21')?.name).toBe('download');
    expect(findRoute('/download/fabric/1.21/extra')).toBeUndefined();
  });

  it('serves /admin/edit-user with a username', () => {
    const route = findRoute('/admin/edit-user/Bob');
    expect(route?.name).toBe('admin-edit-user');
    expect(route?.auth).toBe(true);
  });

  it('answers undefined for unknown paths', () => {
    for (const path of [
      '/nope',
      '/gallery/unknown',
      '/admin/unknown',
      '/user/a/b',
      '/upload-cape/x',
      '/legal/other',
      '/account',
      '/api/user',
      '/help/more',
    ]) {
      expect(findRoute(path), path).toBeUndefined();
    }
  });
});

describe('normalizePath', () => {
  it('strips a trailing slash, the query string and the fragment', () => {
    expect(normalizePath('/help/')).toBe('/help');
    expect(normalizePath('/help?x=1')).toBe('/help');
    expect(normalizePath('/help/?x=1#top')).toBe('/help');
    expect(normalizePath('/legal/terms#section')).toBe('/legal/terms');
  });

  it('keeps the root path', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/?ref=x')).toBe('/');
    expect(normalizePath('')).toBe('/');
  });

  it('lets findRoute match paths with a trailing slash or a query', () => {
    expect(findRoute('/help/')?.name).toBe('help');
    expect(findRoute('/account/login?ref=%2Fgallery')?.name).toBe('login');
    expect(findRoute(`/gallery/${HASH}/?from=list`)?.name).toBe('gallery-item');
  });
});

describe('titles and login links', () => {
  it('builds the document title from the route title and the site name', () => {
    expect(pageTitle('Help', 'Cloakroom')).toBe('Help | Cloakroom');
    expect(pageTitle(routeByName('home').title, 'Other')).toBe('Home | Other');
  });

  it('routeByName throws for an unknown name', () => {
    expect(() => routeByName('no-such-route')).toThrow();
  });

  it('loginUrlFor sends the visitor to /account/login with the wanted path in ref', () => {
    expect(loginUrlFor('/gallery/new')).toBe('/account/login?ref=%2Fgallery%2Fnew');
    const url = new URL(loginUrlFor('/gallery?sort=likes&page=2'), 'https://site.example');
    expect(url.pathname).toBe('/account/login');
    expect(url.searchParams.get('ref')).toBe('/gallery?sort=likes&page=2');
    expect([...url.searchParams.keys()]).toEqual(['ref']);
  });
});

describe('isSafeRef', () => {
  it('accepts paths on this site', () => {
    for (const ref of ['/', '/premium', '/gallery/new?x=1', '/user/Bob']) expect(isSafeRef(ref), ref).toBe(true);
  });

  it('refuses other sites, protocol-relative URLs, backslashes and non-strings', () => {
    for (const ref of [
      '//evil.com',
      '//evil.com/path',
      'https://x',
      'http://evil.com/',
      'javascript:alert(1)',
      '/\\evil.com',
      '\\\\evil.com',
      '/ok\\..\\',
      '/\t/evil.com',
      '/\n/evil.com',
      '/\r/evil.com',
      'premium',
      '',
      null,
      undefined,
      42,
      ['/'],
    ]) {
      expect(isSafeRef(ref), JSON.stringify(ref)).toBe(false);
    }
  });
});
