// Counts in words: one of a thing is singular, every other count (0 too) and a lower bound are plural.
import { describe, expect, it } from 'vitest';
import { countOf, formatCount, plural } from '../../../src/lib/plural';

describe('plural', () => {
  it('takes the singular for exactly one and the plural for 0, 2 and more', () => {
    expect(plural(1, 'player')).toBe('player');
    expect(plural(0, 'player')).toBe('players');
    expect(plural(2, 'player')).toBe('players');
  });

  it('takes a given plural form (a verb that agrees with the count)', () => {
    expect(`${plural(1, 'player')} ${plural(1, 'uses', 'use')}`).toBe('player uses');
    expect(`${plural(7, 'player')} ${plural(7, 'uses', 'use')}`).toBe('players use');
  });
});

describe('countOf', () => {
  it('writes the count with thousands separators and the word that agrees with it', () => {
    expect(countOf(1, 'texture')).toBe('1 texture');
    expect(countOf(0, 'like')).toBe('0 likes');
    expect(countOf(1234, 'download')).toBe('1,234 downloads');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });

  it('marks a lower bound with + and the plural, whatever the count', () => {
    expect(countOf(1000, 'texture', { atLeast: true })).toBe('1,000+ textures');
    expect(countOf(1, 'texture', { atLeast: true })).toBe('1+ textures');
  });
});
