// The check of a gallery item's title and tags, shared by a gallery upload, an edit and sharing a creator's cape.
import { galleryRefusal, galleryTitleRefusal } from '../../src/lib/gallery-rules.ts';
import { RefusedError, type Refusal } from '../../src/lib/refusals.ts';
import type { Db } from '../db/database.ts';
import { existingTags } from './items.ts';

/**
 * The refusal of a title and a (deduplicated) tag list by the gallery's rules, with the message as the field's, or null
 * when they pass.
 */
export async function titleAndTagsRefusal(db: Db, title: string, tags: string[]): Promise<Refusal | null> {
  const titleProblem = galleryTitleRefusal(title);
  if (titleProblem) return { ...titleProblem, fields: { title: [titleProblem.message] } };
  if (tags.length === 0) return tagsRefusal('missingFields');
  const known = await existingTags(db, tags);
  return known.length === tags.length ? null : tagsRefusal('unknownTag');
}

/** Checks a title and tag list (see titleAndTagsRefusal); throws a refusal as a RefusedError. */
export async function checkTitleAndTags(db: Db, title: string, tags: string[]): Promise<void> {
  const refusal = await titleAndTagsRefusal(db, title, tags);
  if (refusal) throw new RefusedError(refusal);
}

/** The refusal of the tags, with the message as the tags' field message. */
export function tagsRefusal(key: 'missingFields' | 'unknownTag'): Refusal {
  const refusal = galleryRefusal(key);
  return { ...refusal, fields: { tags: [refusal.message] } };
}
