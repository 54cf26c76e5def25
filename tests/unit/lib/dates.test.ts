// The one way pages write dates: "27 Nov 2026", and "27 Nov 2026, 15:21" where the time matters (15:21:07 where
// seconds tell two moments apart).
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, machineDate } from '../../../src/lib/dates.ts';

describe('dates', () => {
  it('writes the day, the short month and the year, from milliseconds, an ISO string or a Date', () => {
    const moment = new Date(2026, 10, 27, 15, 21, 53);
    for (const value of [moment, moment.getTime(), moment.toISOString()]) expect(formatDate(value)).toBe('27 Nov 2026');
    expect(formatDate(new Date(Date.UTC(2026, 10, 22)), 'UTC')).toBe('22 Nov 2026');
  });

  it('adds the time on the 24-hour clock where the time matters', () => {
    expect(formatDateTime(new Date(2026, 10, 27, 15, 21, 53))).toBe('27 Nov 2026, 15:21');
    expect(formatDateTime(new Date(2026, 0, 3, 0, 5))).toBe('3 Jan 2026, 00:05');
  });

  it('adds the seconds where two moments of one minute must be told apart', () => {
    expect(formatDateTime(new Date(2026, 10, 27, 15, 21, 7), { seconds: true })).toBe('27 Nov 2026, 15:21:07');
  });

  it('says Unknown for a date that does not parse', () => {
    expect(formatDate('not a date')).toBe('Unknown');
    expect(formatDateTime(Number.NaN)).toBe('Unknown');
    expect(machineDate('not a date')).toBeUndefined();
  });
});
