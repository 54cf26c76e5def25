// The admin pages' messages, sent by the server's admin calls.

/** The admin calls' messages. */
export const adminMessages = {
  reportGone: 'That report was already answered or does not exist.',
  alreadyBanned: 'That player is already banned.',
  notBanned: 'That player is not banned.',
  banSelf: 'You cannot ban yourself.',
  chooseListedReason: 'Choose a reason from the list.',
  chooseReason: 'Choose a reason.',
  onlyGalleryWhitelist: 'Only gallery reports can be whitelisted.',
  notWhitelisted: 'That texture is not on the whitelist.',
  noLogImage: 'That log has no image.',
  noCapeForFlags: 'That player has no cape, so the cape flags cannot be set.',
} as const;

/** The message when a player has no cape (or ears) to delete. */
export function nothingToDeleteMessage(slot: 'cape' | 'ears'): string {
  return `That player has no ${slot} to delete.`;
}

/** The message when no player has the name a registration code was asked for. */
export function noPlayerCalledMessage(username: string): string {
  return `No player is called "${username}".`;
}
