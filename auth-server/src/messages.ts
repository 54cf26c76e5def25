// What a joining player reads on the game's "disconnected" screen: their login code, the ban notice, or "try again".
import type { SiteAnswer } from './site-client.ts';

/** A chat component, the game's formatted text: a text with optional colour, weight and following parts. */
export interface ChatComponent {
  text: string;
  color?: string;
  bold?: boolean;
  extra?: ChatComponent[];
}

/** The site's notice for a banned account (the same text as BANNED_MESSAGE in the site's server/routes/account.ts). */
export const BANNED_MESSAGE = 'The specified account has been banned for violating our terms of service.';

/** What a player reads when the site cannot be reached or answers with an error. */
export const UNAVAILABLE_MESSAGE = 'The login service is not available right now. Try again in a minute.';

/** The disconnect message that shows a player their code: "Your authorization code is » 123456 «", the code part in bold green. */
export function codeMessage(code: string): ChatComponent {
  return { text: 'Your authorization code is ', extra: [{ text: `» ${code} «`, color: 'green', bold: true }] };
}

/** The disconnect message for an answer of the site. */
export function disconnectMessage(answer: SiteAnswer): ChatComponent {
  if (answer.kind === 'code') return codeMessage(answer.code);
  if (answer.kind === 'banned') return { text: BANNED_MESSAGE, color: 'red' };
  return { text: UNAVAILABLE_MESSAGE, color: 'gold' };
}

/** The plain text of a chat component (a JSON string, a string or an object with text, translate and extra parts). */
export function plainText(component: unknown): string {
  if (typeof component === 'string') {
    if (!component.startsWith('{') && !component.startsWith('[') && !component.startsWith('"')) return component;
    try {
      return plainText(JSON.parse(component));
    } catch {
      return component;
    }
  }
  if (Array.isArray(component)) return component.map(plainText).join('');
  if (component === null || typeof component !== 'object') return '';
  const parts = component as { text?: unknown; translate?: unknown; extra?: unknown };
  const own = typeof parts.text === 'string' ? parts.text : typeof parts.translate === 'string' ? parts.translate : '';
  return own + (Array.isArray(parts.extra) ? parts.extra.map(plainText).join('') : '');
}
