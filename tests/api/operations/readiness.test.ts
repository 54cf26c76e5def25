// API tests for readiness: /readyz when the database, the blob store or Redis fails, and /healthz and /readyz in
// maintenance mode.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { serverForSuite, startServer } from '../../helpers/server.ts';
import { startS3rver } from '../../../support/s3rver.ts';
import { closedPort } from '../../helpers/tcp-proxy.ts';
import { getJson } from '../../helpers/operations.ts';

describe.each(backends)('readiness when a dependency fails on $name', (backend) => {
  it('answers 503 with the database failed once the database is gone, while /healthz still answers', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url);
    try {
      await server.db.destroy();
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({
        status: 'unavailable',
        checks: { database: 'failed', blobStore: 'ok', redis: 'not_configured' },
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('answers 503 with the blob store failed when its directory cannot be made or written', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url);
    try {
      expect((await getJson(server, '/readyz')).status).toBe(200);
      const storeRoot = path.join(server.config.dataDir, 'textures');
      fs.rmSync(storeRoot, { recursive: true, force: true });
      fs.writeFileSync(storeRoot, 'a file where the texture directory should be');
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', blobStore: 'failed', redis: 'not_configured' },
      });
      fs.rmSync(storeRoot);
      expect((await getJson(server, '/readyz')).status).toBe(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('probes an S3 bucket, empty or holding textures: 200 while it answers, 503 with the blob store failed once it is gone', async () => {
    const s3 = await startS3rver();
    const database = await backend.createDatabase();
    const server = await startServer(database.url, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      expect(await getJson(server, '/readyz')).toMatchObject({ status: 200, body: { checks: { blobStore: 'ok' } } });
      // The probe lists one object: with more in the bucket, the listing is one page of several.
      for (let texture = 0; texture < 3; texture++) {
        const bytes = randomBytes(16);
        await server.app.textureLibrary.store.put(createHash('sha256').update(bytes).digest('hex'), bytes);
      }
      expect(await getJson(server, '/readyz')).toMatchObject({ status: 200, body: { checks: { blobStore: 'ok' } } });
      await s3.close();
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', blobStore: 'failed', redis: 'not_configured' },
      });
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('answers 200 degraded when Redis is down: the server keeps serving without it', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url, { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(200);
      expect(body).toEqual({ status: 'degraded', checks: { database: 'ok', blobStore: 'ok', redis: 'failed' } });
    } finally {
      await server.close();
      await database.drop();
    }
  });
});

describe.each(backends)('health checks in maintenance mode on $name', (backend) => {
  const suite = serverForSuite(backend, { MAINTENANCE: 'true' });

  it('answers /healthz and /readyz while the API answers 503', async () => {
    expect((await fetch(`${suite.server.url}/api/home`)).status).toBe(503);
    expect(await getJson(suite.server, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await getJson(suite.server, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
