// The texture library as the server and the CLI use it: the configured blob store, with players, gallery items,
// reports' copies and the AI log as references.
import { countAiLogReferences } from '../admin/ai-cape-logs.ts';
import type { Db } from '../db/database.ts';
import { countGalleryReferences, countVisibleGalleryReferences } from '../gallery/items.ts';
import { createBlobStore, type BlobStoreConfig } from '../storage/index.ts';
import { countReportReferences } from '../users/reports.ts';
import { TextureLibrary } from '../textures/library/texture-library.ts';
import type { TextureCache } from '../textures/library/cache.ts';

/**
 * Creates the texture library on the configured blob store, counting gallery items, reported textures and AI log images
 * as references too (visible gallery items as public ones); the server adds its in-memory texture cache.
 */
export function createTextureLibrary(config: BlobStoreConfig, db: Db, cache?: TextureCache): TextureLibrary {
  const library = new TextureLibrary(db, createBlobStore(config), cache);
  library.addReferenceCounter(countGalleryReferences, countVisibleGalleryReferences);
  library.addReferenceCounter(countReportReferences);
  library.addReferenceCounter(countAiLogReferences);
  return library;
}
