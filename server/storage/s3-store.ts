// The S3-compatible blob store: textures as `<prefix><sha256>.png` objects in one bucket (AWS, MinIO, R2, s3rver).
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config/index.ts';
import { isBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts';

/** How to reach the bucket; credentials fall back to the SDK's default chain when not given. */
export interface S3BlobStoreOptions extends S3Config {
  /** Prepended to every object key; 'textures/' unless given. */
  prefix?: string | undefined;
  /** Keys one listing request asks for; unset asks for the bucket's page, 1,000 on S3. */
  listPageSize?: number | undefined;
}

/** Cache-Control stored on every object: the key is the content hash, so it never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException && error.$metadata?.httpStatusCode === 404) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** Stores blobs as objects in an S3-compatible bucket. */
export class S3BlobStore implements BlobStore {
  /** The underlying client (exposed for tests and for presigning later). */
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly listPageSize: number | undefined;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? 'textures/';
    this.listPageSize = options.listPageSize;
    const credentials =
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(credentials ? { credentials } : {}),
      forcePathStyle: options.forcePathStyle,
      // The SDK's default CRC32 checksums corrupt streamed uploads on some S3-compatible servers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The object key for a blob key; throws on anything that is not a SHA-256 hex digest. */
  objectKey(key: string): string {
    if (!isBlobKey(key)) throw new Error(`Not a blob key: ${key}`);
    return `${this.prefix}${key}.png`;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: 'image/png',
        CacheControl: IMMUTABLE,
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const objectKey = this.objectKey(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      if (!response.Body) return Buffer.alloc(0);
      return Buffer.from(await response.Body.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Lists the bucket's objects under the prefix page by page; objects whose names are not `<key>.png` are left out. */
  async *list(): AsyncGenerator<StoredBlob> {
    for await (const page of paginateListObjectsV2(
      { client: this.client, ...(this.listPageSize ? { pageSize: this.listPageSize } : {}) },
      { Bucket: this.bucket, Prefix: this.prefix },
    )) {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(this.prefix.length) ?? '';
        const key = name.endsWith('.png') ? name.slice(0, -'.png'.length) : '';
        if (isBlobKey(key) && object.LastModified) yield { key, modifiedAt: object.LastModified.getTime() };
      }
    }
  }

  /**
   * Lists at most one object under the prefix: the bucket answers, and the credentials may list it (as the sweep
   * needs).
   */
  async probe(signal: AbortSignal): Promise<void> {
    await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, MaxKeys: 1 }), {
      abortSignal: signal,
    });
  }

  /** Nothing to do: a PutObject that is cut short leaves no object behind. */
  async removePartialWrites(): Promise<string[]> {
    return [];
  }

  /** S3 DeleteObject already succeeds on a missing key; a 404 from a stricter server is ignored too. */
  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
  }
}
