// The blob store interface: content-addressed PNG bytes, keyed by their SHA-256 (64 lowercase hex).
import { isTextureHash } from '../../src/lib/ids.ts';

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
  /** Every stored key with when its bytes were last written; a write still in progress is not listed. */
  list(): AsyncIterable<StoredBlob>;
  /**
   * Removes what writes cut short before `before` (ms since the epoch) left behind; resolves to a name for each thing
   * removed.
   */
  removePartialWrites(before: number): Promise<string[]>;
  /**
   * Resolves when the store can be reached and written to right now, rejects with why not (the readiness check); gives
   * up when `signal` aborts.
   */
  probe(signal: AbortSignal): Promise<void>;
}

/** A key in a blob store and when its bytes were last written (ms since the epoch). */
export interface StoredBlob {
  key: string;
  modifiedAt: number;
}

/** Whether a string is a blob key (SHA-256, 64 lowercase hex). */
export function isBlobKey(key: string): boolean {
  return isTextureHash(key);
}
