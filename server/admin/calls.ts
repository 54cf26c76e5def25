// What every admin call shares: who may call it, what it is given, the page sizes of the admin lists, and the answers
// to a refused ban, unban or report answer.
import { adminMessages } from '../../src/lib/admin-rules.ts';
import { playerMessages } from '../../src/lib/player-messages.ts';
import type { ProfileLookup } from '../accounts/registration.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import type { ProfileCache } from '../mod/profiles.ts';
import type { ImageJobs } from '../images/job-queue.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { UserReportRefusal } from './user-reports.ts';

/** What the admin calls need. */
export interface AdminRoutesOptions {
  db: Db;
  bus: InvalidationBus;
  library: TextureLibrary;
  imageJobs: ImageJobs;
  profiles: ProfileCache;
  lookup: ProfileLookup;
}

/** The route config of every admin call: admins only (401 for visitors, 403 for players). */
export const ADMIN_ONLY = { auth: 'admin' } as const;

/** Rows per page of the admin lists. */
export const ADMIN_PAGE_SIZE = 15;
/** Rows per page of the AI cape log. */
export const AI_LOG_PAGE_SIZE = 10;

const REFUSALS: Record<UserReportRefusal, { status: number; message: string }> = {
  gone: { status: 404, message: adminMessages.reportGone },
  unknown: { status: 404, message: playerMessages.unknown },
  'already-banned': { status: 422, message: adminMessages.alreadyBanned },
  'not-banned': { status: 422, message: adminMessages.notBanned },
  self: { status: 422, message: adminMessages.banSelf },
};

/** Throws the answer for a refused ban, unban or report answer; does nothing when there is no refusal. */
export function refuseAdminAction(refusal: UserReportRefusal | null): void {
  if (refusal) throw new HttpError(REFUSALS[refusal].status, REFUSALS[refusal].message);
}
