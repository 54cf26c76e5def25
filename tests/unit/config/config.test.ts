// Unit tests for reading the configuration: TRUST_PROXY as a hop count or proxy addresses, the HTTP timeouts, the mod
// API's caches, the outside address settings and the image queue.
import { describe, expect, it } from 'vitest';
import { loadConfig, trustProxyOption } from '../../../server/config/index.ts';

describe('TRUST_PROXY', () => {
  it('is off by default and for false or 0', () => {
    for (const value of [undefined, '', 'false', '0'])
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy, String(value)).toBe(false);
  });

  it('reads a number as the count of proxies in front of the server', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    const trust = trustProxyOption(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false]);
  });

  it('reads a list of proxy addresses and CIDR blocks', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
  });

  it('reads true as one proxy, and says so at start', () => {
    const config = loadConfig({ TRUST_PROXY: 'true' });
    expect(config.trustProxy).toBe(1);
    expect(config.warnings).toEqual([expect.stringContaining('TRUST_PROXY=true is read as TRUST_PROXY=1')]);
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([]);
  });

  it('refuses anything else with a message naming the setting', () => {
    for (const value of ['yes', '10.0.0.0/33', '10.0.0', 'proxy.example', '1.2.3.4/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        /Invalid configuration: TRUST_PROXY: expected a hop count/,
      );
    }
  });
});

describe('HTTP timeouts', () => {
  it('have defaults and can be set', () => {
    expect(loadConfig({}).timeouts).toEqual({ headersMs: 10_000, requestMs: 60_000, keepAliveMs: 72_000 });
    expect(
      loadConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '0', KEEP_ALIVE_TIMEOUT_MS: '1000' }).timeouts,
    ).toEqual({
      headersMs: 2000,
      requestMs: 0,
      keepAliveMs: 1000,
    });
  });
});

describe('mod API cache settings', () => {
  it('keep up to a million profiles and 64 MB of textures by default', () => {
    const config = loadConfig({});
    expect(config.profileCacheSize).toBe(1_000_000);
    expect(config.profileCacheTtlMs).toBe(5 * 60_000);
    expect(config.textureCacheBytes).toBe(64 * 1024 * 1024);
  });

  it('read PROFILE_CACHE_TTL_S in seconds', () => {
    expect(loadConfig({ PROFILE_CACHE_TTL_S: '3600' }).profileCacheTtlMs).toBe(3_600_000);
    expect(() => loadConfig({ PROFILE_CACHE_TTL_S: '0' })).toThrow(/PROFILE_CACHE_TTL_S/);
  });

  it('read TEXTURE_CACHE_MB in megabytes, 0 turning the texture cache off', () => {
    expect(loadConfig({ TEXTURE_CACHE_MB: '0.5' }).textureCacheBytes).toBe(512 * 1024);
    expect(loadConfig({ TEXTURE_CACHE_MB: '0' }).textureCacheBytes).toBe(0);
  });

  it('refuse a negative or non-numeric TEXTURE_CACHE_MB with the variable named', () => {
    expect(() => loadConfig({ TEXTURE_CACHE_MB: '-1' })).toThrow(/TEXTURE_CACHE_MB/);
    expect(() => loadConfig({ TEXTURE_CACHE_MB: 'lots' })).toThrow(/TEXTURE_CACHE_MB/);
  });
});

describe('outside addresses', () => {
  it('refuse private addresses and allow only the images API own origin by default', () => {
    const defaults = loadConfig({});
    expect(defaults.creators.allowPrivateAddresses).toBe(false);
    expect(defaults.creators.ai.imageHosts).toEqual([]);
  });

  it('read OUTSIDE_URLS_ALLOW_PRIVATE as a flag and AI_IMAGE_HOSTS as a list', () => {
    const set = loadConfig({
      OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
      AI_IMAGE_HOSTS: 'images.example, https://cdn.example:8443',
    });
    expect(set.creators.allowPrivateAddresses).toBe(true);
    expect(set.creators.ai.imageHosts).toEqual(['images.example', 'https://cdn.example:8443']);
    expect(() => loadConfig({ OUTSIDE_URLS_ALLOW_PRIVATE: 'yes' })).toThrow(/OUTSIDE_URLS_ALLOW_PRIVATE/);
    for (const bad of ['https://', 'ftp://files.example', 'https://cdn.example/path', 'images example']) {
      expect(() => loadConfig({ AI_IMAGE_HOSTS: bad }), bad).toThrow(/AI_IMAGE_HOSTS/);
    }
  });
});

describe('image queue settings', () => {
  it('share image work with a small-job slot, two jobs and 20 seconds of work a minute per player, 32 waiting, 30 s a job by default', () => {
    expect(loadConfig({ IMAGE_JOB_CONCURRENCY: '1' }).imageJobs).toEqual({
      concurrency: 1,
      smallSlots: 1,
      smallJobPixels: 2048 * 1024,
      perPlayer: 2,
      queueMax: 32,
      timeoutMs: 30_000,
      workSecondsPerMinute: 20,
    });
  });

  it('can be set, and refuse a setting that is not a number with the variable named', () => {
    const env = {
      IMAGE_SMALL_JOB_SLOTS: '0',
      IMAGE_SMALL_JOB_PIXELS: '4096',
      IMAGE_JOBS_PER_PLAYER: '5',
      IMAGE_JOB_QUEUE_MAX: '100',
      IMAGE_JOB_TIMEOUT_MS: '5000',
      IMAGE_WORK_SECONDS_PER_MINUTE: '2.5',
    };
    expect(loadConfig(env).imageJobs).toMatchObject({
      smallSlots: 0,
      smallJobPixels: 4096,
      perPlayer: 5,
      queueMax: 100,
      timeoutMs: 5000,
      workSecondsPerMinute: 2.5,
    });
    expect(() => loadConfig({ IMAGE_JOBS_PER_PLAYER: '0' })).toThrow(/IMAGE_JOBS_PER_PLAYER/);
    expect(() => loadConfig({ IMAGE_JOB_TIMEOUT_MS: 'soon' })).toThrow(/IMAGE_JOB_TIMEOUT_MS/);
  });
});

describe('CONTRIBUTORS', () => {
  it('is empty by default and reads uuids with or without dashes as stored', () => {
    expect(loadConfig({}).contributors).toEqual([]);
    expect(
      loadConfig({ CONTRIBUTORS: '069A79F4-44E9-4726-A5BE-FCA90E38AAF5, 853c80ef3c3749fdaa49938b674adae6' })
        .contributors,
    ).toEqual(['069a79f444e94726a5befca90e38aaf5', '853c80ef3c3749fdaa49938b674adae6']);
  });

  it('refuses to start on an entry that is not a uuid, naming it', () => {
    expect(() => loadConfig({ CONTRIBUTORS: '069a79f444e94726a5befca90e38aaf5,Notch' })).toThrow(
      /CONTRIBUTORS: expected player uuids, not "Notch"/,
    );
  });
});
