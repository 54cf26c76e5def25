// The blob store interface: content-addressed PNG bytes, keyed by their SHA-256 (64 lowercase hex).

/** Where texture bytes live. Keys are SHA-256 hex digests of the stored bytes. */
export interface BlobStore {
  /** Stores bytes under a key; storing an existing key again is harmless. Resolves once the bytes are durable. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under a key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Whether a key exists. */
  has(key: string): Promise<boolean>;
  /** Removes a key; removing a missing key is harmless. */
  delete(key: string): Promise<void>;
}

/** Whether a string is a blob key (SHA-256, 64 lowercase hex). */
export function isBlobKey(key: string): boolean {
  return /^[0-9a-f]{64}$/.test(key);
}
