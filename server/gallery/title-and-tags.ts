// The check of a gallery item's title and tags, shared by a gallery upload, an edit and sharing a made cape.
import { galleryRefusal, galleryTitleRefusal } from '../../src/lib/gallery-rules.ts';
import type { Db } from '../db/database.ts';
import { refusalError } from '../http/errors.ts';
import { existingTags } from './items.ts';

/**
 * Checks a title and a (deduplicated) tag list against the gallery's rules; throws a 422 with the message and its
 * reason code.
 */
export async function checkTitleAndTags(db: Db, title: string, tags: string[]): Promise<void> {
  const titleProblem = galleryTitleRefusal(title);
  if (titleProblem) throw refusalError(422, titleProblem, { title: [titleProblem.message] });
  if (tags.length === 0) throw tagsRefused('missingFields');
  const known = await existingTags(db, tags);
  if (known.length !== tags.length) throw tagsRefused('unknownTag');
}

/** The 422 refusing the tags, with the message as the tags' field error. */
function tagsRefused(key: 'missingFields' | 'unknownTag') {
  const refusal = galleryRefusal(key);
  return refusalError(422, refusal, { tags: [refusal.message] });
}
