// Picks the blob store from configuration: an S3 bucket when one is configured, else files under DATA_DIR/textures.
import path from 'node:path';
import type { S3Config } from '../config/index.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-store.ts';
import { S3BlobStore } from './s3-store.ts';

export { isBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts';
export { LocalBlobStore } from './local-store.ts';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-store.ts';

/** The part of the server configuration the blob store needs (a subset of `Config`). */
export interface BlobStoreConfig {
  dataDir: string;
  s3?: S3Config | undefined;
}

/** Creates the configured blob store: S3BlobStore when `config.s3` is set, else LocalBlobStore in DATA_DIR/textures. */
export function createBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.s3) return new S3BlobStore(config.s3);
  return new LocalBlobStore(path.join(config.dataDir, 'textures'));
}
