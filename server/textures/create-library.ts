// The texture library as the server and the CLI use it: the configured blob store, with players and gallery items as references.
import type { Db } from '../db/database.ts';
import { countGalleryReferences } from '../gallery/items.ts';
import { createBlobStore, type BlobStoreConfig } from '../storage/index.ts';
import { TextureLibrary } from './library.ts';

/** Creates the texture library on the configured blob store, counting gallery items as references too. */
export function createTextureLibrary(config: BlobStoreConfig, db: Db): TextureLibrary {
  const library = new TextureLibrary(db, createBlobStore(config));
  library.addReferenceCounter(countGalleryReferences);
  return library;
}
