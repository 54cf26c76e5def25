// What every admin call shares: who may call it, the page sizes of the admin lists, and the answers to a refused ban,
// unban or report answer.
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { playerMessages } from '../../../src/lib/player-messages.ts';
import type { UserReportRefusal } from '../../admin/user-reports.ts';
import { HttpError } from '../../http/errors.ts';

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
