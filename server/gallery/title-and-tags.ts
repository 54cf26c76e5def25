// The check of a gallery item's title and tags, shared by a gallery upload, an edit and sharing a made cape.
import { checkGalleryTitle, galleryMessages } from '../../src/lib/gallery-rules.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { existingTags } from './items.ts';

/** Checks a title and a (deduplicated) tag list against the gallery's rules; throws a 422 with the message. */
export async function checkTitleAndTags(db: Db, title: string, tags: string[]): Promise<void> {
  const titleProblem = checkGalleryTitle(title);
  if (titleProblem) throw new HttpError(422, titleProblem, { title: [titleProblem] });
  if (tags.length === 0) throw new HttpError(422, galleryMessages.missingFields, { tags: [galleryMessages.missingFields] });
  const known = await existingTags(db, tags);
  if (known.length !== tags.length) throw new HttpError(422, galleryMessages.unknownTag, { tags: [galleryMessages.unknownTag] });
}
