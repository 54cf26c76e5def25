// The messages about looking up a player, shared by the player lookup, the reports and the admin pages.

/** The player messages. */
export const playerMessages = {
  /** A player that is not registered. */
  unknown: "That user doesn't exist or isn't registered.",
  /** A username that does not match the pattern. */
  usernamePattern: 'A username is 1 to 16 letters, digits or underscores.',
} as const;
