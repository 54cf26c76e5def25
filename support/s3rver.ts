// Starts an in-process s3rver (a local S3 stand-in) on a free port with a throwaway directory, for storage tests. Its
// continuation tokens are made with a cipher Node 24 has, so a bucket lists past its first page.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Module, { createRequire } from 'node:module';

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

const require = createRequire(import.meta.url);

/**
 * `crypto` as s3rver's bucket controller gets it: the same, except that its continuation tokens' cipher, single DES
 * (which OpenSSL 3 keeps in its legacy provider only, so Node 24 refuses it and every listing past one page fails), is
 * triple DES with the one key three times over: encrypt-decrypt-encrypt with one key is DES itself, so the tokens are
 * the ones s3rver always made.
 */
const tokenCrypto: typeof crypto = {
  ...crypto,
  createCipheriv: ((algorithm: string, key: Buffer, iv: Buffer) =>
    algorithm === 'des'
      ? crypto.createCipheriv('des-ede3-cbc', Buffer.concat([key, key, key]), iv)
      : crypto.createCipheriv(algorithm, key, iv)) as typeof crypto.createCipheriv,
  createDecipheriv: ((algorithm: string, key: Buffer, iv: Buffer) =>
    algorithm === 'des'
      ? crypto.createDecipheriv('des-ede3-cbc', Buffer.concat([key, key, key]), iv)
      : crypto.createDecipheriv(algorithm, key, iv)) as typeof crypto.createDecipheriv,
};

/** Marks s3rver's bucket controller as loaded with `tokenCrypto` (a test file may evaluate this module again). */
const WITH_TOKEN_CRYPTO = Symbol.for('cloakroom.s3rver.tokenCrypto');

/** Loads s3rver with `tokenCrypto` given to its bucket controller (where its continuation tokens are made and read). */
function loadS3rver(): new (options: S3rverOptions) => S3rverInstance {
  const controller = require.resolve('s3rver/lib/controllers/bucket.js');
  const loaded = require.cache[controller] as (NodeJS.Module & { [WITH_TOKEN_CRYPTO]?: true }) | undefined;
  if (loaded && !loaded[WITH_TOKEN_CRYPTO])
    throw new Error("s3rver's bucket controller was loaded without the token cipher Node 24 has");
  if (!loaded) {
    const moduleRequire = Module.prototype.require;
    Module.prototype.require = function (this: Module, id: string) {
      return this.filename === controller && id === 'crypto' ? tokenCrypto : moduleRequire.call(this, id);
    } as typeof moduleRequire;
    try {
      require('s3rver');
    } finally {
      Module.prototype.require = moduleRequire;
    }
    (require.cache[controller] as NodeJS.Module & { [WITH_TOKEN_CRYPTO]?: true })[WITH_TOKEN_CRYPTO] = true;
  }
  // s3rver ships no type declarations: it is typed with the small shape used here.
  return require('s3rver') as new (options: S3rverOptions) => S3rverInstance;
}

const S3rver = loadS3rver();

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
