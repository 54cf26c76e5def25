// S3BlobStore against a real S3 stand-in (s3rver in-process): round trips, misses, deletes, headers, large bodies and
// listing.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, LocalBlobStore, S3BlobStore } from '../../../server/storage/index.ts';
import { startS3rver, type RunningS3rver } from '../../../support/s3rver.ts';
import { noisePng } from '../../../support/textures.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let s3: RunningS3rver;

let store: S3BlobStore;
let smallPng: Buffer;
let largePng: Buffer;

beforeAll(async () => {
  s3 = await startS3rver();
  store = new S3BlobStore(s3.config);
  smallPng = await noisePng(64, 32);
  largePng = await noisePng(200, 200);
});

afterAll(async () => {
  store?.client.destroy();
  await s3?.close();
});

describe('S3BlobStore', () => {
  it('uses the WHEN_REQUIRED checksum settings DESIGN.md asks for', async () => {
    expect(await store.client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await store.client.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
  });

  it('returns the identical bytes of a small and a ~100 KB PNG', async () => {
    expect(largePng.length).toBeGreaterThan(100_000);
    for (const png of [smallPng, largePng]) {
      const key = sha256(png);
      await store.put(key, png);
      const back = await store.get(key);
      expect(back).not.toBeNull();
      expect(back!.equals(png)).toBe(true);
      expect(sha256(back!)).toBe(key);
    }
  });

  it('reports whether a key exists', async () => {
    const key = sha256(smallPng);
    await store.put(key, smallPng);
    expect(await store.has(key)).toBe(true);
    expect(await store.has(sha256(randomBytes(16)))).toBe(false);
  });

  it('returns null for a missing key', async () => {
    expect(await store.get(sha256(randomBytes(16)))).toBeNull();
  });

  it('deletes a key, and deleting a missing key is harmless', async () => {
    const png = await noisePng(64, 32);
    const key = sha256(png);
    await store.put(key, png);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    expect(await store.has(key)).toBe(false);
    await expect(store.delete(key)).resolves.toBeUndefined();
    await expect(store.delete(sha256(randomBytes(16)))).resolves.toBeUndefined();
  });

  it('accepts the same key twice and keeps the bytes', async () => {
    const png = await noisePng(64, 32);
    const key = sha256(png);
    await store.put(key, png);
    await expect(store.put(key, png)).resolves.toBeUndefined();
    expect((await store.get(key))!.equals(png)).toBe(true);
  });

  it('refuses keys that are not SHA-256 hex', async () => {
    const good = sha256(smallPng);
    const bad = [
      '',
      'abc',
      good.toUpperCase(),
      `${good}0`,
      good.slice(1),
      `../${good.slice(3)}`,
      `${good.slice(4)}.png`,
    ];
    for (const key of bad) {
      await expect(store.put(key, smallPng)).rejects.toThrow(/Not a blob key/);
      await expect(store.get(key)).rejects.toThrow(/Not a blob key/);
      await expect(store.has(key)).rejects.toThrow(/Not a blob key/);
      await expect(store.delete(key)).rejects.toThrow(/Not a blob key/);
    }
  });

  it('stores objects as textures/<hash>.png with PNG type and year-long immutable caching', async () => {
    const key = sha256(smallPng);
    await store.put(key, smallPng);
    expect(store.objectKey(key)).toBe(`textures/${key}.png`);
    const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `textures/${key}.png` }));
    expect(head.ContentType).toBe('image/png');
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
    expect(head.ContentLength).toBe(smallPng.length);
  });

  it('round-trips a 2 MB body byte for byte', async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const key = sha256(bytes);
    await store.put(key, bytes);
    const back = await store.get(key);
    expect(back!.length).toBe(bytes.length);
    expect(sha256(back!)).toBe(key);
  });

  it("round-trips a streamed 2 MB upload through the store's client (corrupted without WHEN_REQUIRED)", async () => {
    // With the SDK default (WHEN_SUPPORTED) a stream is sent aws-chunked with a trailing CRC32, and s3rver
    // stores the chunk framing as data: the object comes back 56 bytes longer.
    const bytes = randomBytes(2 * 1024 * 1024);
    const key = sha256(bytes);
    await store.client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: store.objectKey(key),
        Body: Readable.from([bytes.subarray(0, 1 << 20), bytes.subarray(1 << 20)]),
        ContentLength: bytes.length,
        ContentType: 'image/png',
      }),
    );
    const back = await store.get(key);
    expect(back!.length).toBe(bytes.length);
    expect(sha256(back!)).toBe(key);
  });

  it('honours a custom prefix', async () => {
    const other = new S3BlobStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      prefix: 'other/',
    });
    try {
      const png = await noisePng(64, 32);
      const key = sha256(png);
      await other.put(key, png);
      expect(await other.has(key)).toBe(true);
      expect(await store.has(key)).toBe(false);
    } finally {
      other.client.destroy();
    }
  });

  it('lists its own keys with when they were written, leaving out other objects and other prefixes', async () => {
    const listed = new S3BlobStore({ ...s3.config, prefix: 'listed/' });
    try {
      const started = Date.now();
      const pngs = await Promise.all([1, 2, 3].map(() => noisePng(8, 4)));
      for (const png of pngs) await listed.put(sha256(png), png);
      const written = Date.now();
      const foreign = [
        'listed/notes.txt',
        `listed/${sha256(pngs[0]!)}.png.bak`,
        `listed/${sha256(pngs[0]!).toUpperCase()}.png`,
        `listed/sub/${sha256(pngs[1]!)}.png`,
      ];
      for (const Key of foreign) await listed.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'x' }));
      await store.put(sha256(smallPng), smallPng);

      const blobs = [];
      for await (const blob of listed.list()) blobs.push(blob);
      expect(blobs.map((blob) => blob.key).sort()).toEqual(pngs.map(sha256).sort());
      for (const blob of blobs) {
        // S3 keeps LastModified to the second.
        expect(blob.modifiedAt).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
        expect(blob.modifiedAt).toBeLessThanOrEqual(written);
      }
      expect(await listed.removePartialWrites()).toEqual([]);
    } finally {
      listed.client.destroy();
    }
  });
});

describe('S3BlobStore with more keys than one listing page holds', () => {
  it('lists every key, following the continuation tokens from page to page', async () => {
    // Pages of 10 keys (S3's are 1,000): 25 keys take three listing requests, two of them with a continuation token.
    const many = new S3BlobStore({ ...s3.config, prefix: 'many/', listPageSize: 10 });
    const pages: Array<string | undefined> = [];
    many.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ListObjectsV2Command')
          pages.push((args.input as { ContinuationToken?: string }).ContinuationToken);
        return next(args);
      },
      { step: 'initialize' },
    );
    try {
      const keys = Array.from({ length: 25 }, (_, index) => sha256(Buffer.from(`blob ${index}`)));
      await Promise.all(keys.map((key) => many.put(key, Buffer.from(key))));
      const listed: string[] = [];
      for await (const blob of many.list()) listed.push(blob.key);
      expect(listed.sort()).toEqual(keys.sort());
      expect(pages).toHaveLength(3);
      expect(pages.filter(Boolean)).toHaveLength(2);
    } finally {
      many.client.destroy();
    }
  });
});

describe('createBlobStore', () => {
  it('picks the S3 store when s3 is configured, and it talks to the bucket', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-store-'));
    try {
      const chosen = createBlobStore({
        dataDir,
        s3: {
          bucket: s3.bucket,
          endpoint: s3.endpoint,
          region: 'us-east-1',
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
          forcePathStyle: true,
        },
      });
      expect(chosen).toBeInstanceOf(S3BlobStore);
      const png = await noisePng(64, 32);
      const key = sha256(png);
      await chosen.put(key, png);
      expect((await store.get(key))!.equals(png)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'textures'))).toBe(false);
      (chosen as S3BlobStore).client.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('picks the local store in DATA_DIR/textures when s3 is not configured', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-store-'));
    try {
      for (const chosen of [createBlobStore({ dataDir }), createBlobStore({ dataDir, s3: undefined })]) {
        expect(chosen).toBeInstanceOf(LocalBlobStore);
        const key = sha256(smallPng);
        await chosen.put(key, smallPng);
        expect(fs.readFileSync(path.join(dataDir, 'textures', key.slice(0, 2), `${key}.png`)).equals(smallPng)).toBe(
          true,
        );
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
