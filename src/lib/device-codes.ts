// The user codes of the device flow, which a player reads off a launcher or the game and types on /device: eight
// letters with no vowels and none that look alike (so no word can be spelled and no letter misread), shown as
// XXXX-XXXX; and what the page and its calls say about a code.

/** The letters a user code is made of. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** How many letters a user code has. */
export const USER_CODE_LENGTH = 8;

/** A code as typed, made comparable: capitals, without the dash and spaces. */
export function normalizeUserCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '');
}

/** Whether a normalized code has a user code's shape: eight letters of the alphabet. */
export function isUserCode(normalized: string): boolean {
  return (
    normalized.length === USER_CODE_LENGTH && [...normalized].every((letter) => USER_CODE_ALPHABET.includes(letter))
  );
}

/** A code as the page shows it: the letters in two groups of four (XXXX-XXXX), however many have been typed. */
export function formatUserCode(normalized: string): string {
  const half = USER_CODE_LENGTH / 2;
  return normalized.length > half ? `${normalized.slice(0, half)}-${normalized.slice(half)}` : normalized;
}

/** What the code field keeps of what is typed: the alphabet's letters only, at most eight, shown as XXXX-XXXX. */
export function userCodeInput(text: string): string {
  const letters = [...normalizeUserCode(text)].filter((letter) => USER_CODE_ALPHABET.includes(letter));
  return formatUserCode(letters.join('').slice(0, USER_CODE_LENGTH));
}

/** What the /device page and its calls say about a code. */
export const deviceMessages = {
  incomplete: 'Enter the 8-letter code your app shows, like BCDF-GHJK.',
  wrongCode: 'That code is not right. Check the code your app shows and type it again.',
  expired: 'That code has expired. Start signing in again in your app to get a new code.',
  used: 'That code has already been used. If your app is not signed in, start signing in again there.',
  tooManyTries: 'Too many codes tried. Wait a minute and try again.',
} as const;
