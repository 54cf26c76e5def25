// The reasons a moderator picks from when banning a player or removing a texture, and a player when reporting one (the
// site rules' list, plus impersonation and other).

/** Ban and removal reasons by key, as GET /api/admin/banreasons lists them. */
export const BAN_REASONS: Readonly<Record<string, string>> = {
  drugs: 'Promotes drugs',
  pornography: 'Pornographic imagery',
  hate: 'Sexism, racism or other hateful content',
  fascism: 'Fascist symbols or propaganda',
  nsfw: 'NSFW or NSFL image',
  minors: 'Content unsuitable for minors',
  impersonation: 'Impersonates another player or staff',
  other: 'Breaks the rules in another way',
};

/** Whether a key names a reason. */
export function isBanReason(key: string): boolean {
  return Object.hasOwn(BAN_REASONS, key);
}
