// The mod API's cache settings in the configuration (server/config.ts): defaults, units and refused values.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

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
