// Starts an in-process s3rver (a local S3 stand-in) on a free port with a throwaway directory, for storage tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

interface S3rverOptions {
  port?: number;
  address?: string;
  silent?: boolean;
  directory: string;
  configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  resetOnClose?: boolean;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

// s3rver ships no type declarations, so it is loaded through require with the small shape used here.
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance;

/** A running s3rver: its endpoint URL, the credentials it accepts, and how to stop it and remove its files. */
export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket as the server's S3 configuration names it (path-style, with these credentials). */
  config: {
    bucket: string;
    endpoint: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  };
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 at a free port with one empty bucket (default 'cloakroom-test'). */
export async function startS3rver(bucket = 'cloakroom-test'): Promise<RunningS3rver> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    config: {
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
