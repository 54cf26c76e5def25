// What a player's report carries besides its target: a reason from the ban reasons list and an optional short note.
import { BAN_REASONS } from './ban-reasons';

/** The longest note a report may carry, in characters. */
export const REPORT_NOTE_MAX = 200;

/** The report form's messages, shown by the form and sent by the server. */
export const reportMessages = {
  missingReason: 'Choose a reason.',
  unknownReason: 'Choose a reason from the list.',
  noteTooLong: `Keep the note to ${REPORT_NOTE_MAX} characters or fewer.`,
  reportSelf: 'You cannot report yourself.',
  duplicate: 'You have already reported this player. A moderator will look at it.',
  tooOften: 'You are reporting too often. Please wait a few minutes.',
} as const;

/** Why a player reported a texture or a player: a ban reason key and an optional note. */
export interface ReportGrounds {
  reasonKey: string;
  note: string | null;
}

/** A report's reason key when it is still on the list (a moderator's Remove or Ban starts from it), else null. */
export function listedReasonKey(key: string | null): string | null {
  return key !== null && Object.hasOwn(BAN_REASONS, key) ? key : null;
}

/** The text of a report's reason key, the key itself for one no longer listed, or null for none. */
export function reportReasonText(key: string | null): string | null {
  if (key === null) return null;
  return Object.hasOwn(BAN_REASONS, key) ? BAN_REASONS[key]! : key;
}
