// Booleans written as text (environment variables, form fields, path parameters): which texts are allowed and which
// mean true.

/** The texts a boolean may be written as. */
export const BOOLEAN_TEXTS = ['true', 'false', '1', '0'] as const;

/** Whether a boolean's text says true ('true' or '1'); any other text, or none, is false. */
export function isTrueText(text: string | undefined): boolean {
  return text === 'true' || text === '1';
}
