// How the site words a count: "1 player", "2 players", "1,000+ textures".

/** A count written the site's way, with thousands separators ("1,234"). */
export function formatCount(count: number): string {
  return count.toLocaleString('en');
}

/**
 * The word that goes with a count: the singular for exactly one, else the plural (the singular plus "s" unless given).
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/**
 * A count with its word ("1 like", "1,234 likes"); `atLeast` marks a lower bound, which always takes the plural
 * ("1,000+ textures").
 */
export function countOf(count: number, singular: string, options: { plural?: string; atLeast?: boolean } = {}): string {
  const word = options.atLeast ? (options.plural ?? `${singular}s`) : plural(count, singular, options.plural);
  return `${formatCount(count)}${options.atLeast ? '+' : ''} ${word}`;
}
