// How every page writes a date, the admin pages included: "27 Nov 2026", and "27 Nov 2026, 15:21" where the time
// matters (with seconds where two moments of one minute must be told apart).

/** The day, the month's short name and the year, in that order. */
const DAY_MONTH_YEAR: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };

/** A moment as the API sends it: milliseconds since 1970, an ISO string, or a Date. */
export type DateValue = number | string | Date;

/** The moment as a Date, or null when it does not parse. */
function toDate(value: DateValue): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date as every page writes it, e.g. "27 Nov 2026" ("Unknown" when it does not parse); `timeZone` for dates without a
 * time, such as "UTC".
 */
export function formatDate(value: DateValue, timeZone?: string): string {
  return toDate(value)?.toLocaleDateString('en-GB', { ...DAY_MONTH_YEAR, timeZone }) ?? 'Unknown';
}

/**
 * A date with its time on the 24-hour clock, e.g. "27 Nov 2026, 15:21", or with `seconds` "27 Nov 2026, 15:21:07"
 * (where two moments within a minute must be told apart); "Unknown" when it does not parse.
 */
export function formatDateTime(value: DateValue, options: { seconds?: boolean } = {}): string {
  const date = toDate(value);
  if (!date) return 'Unknown';
  const time = date.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  });
  return `${formatDate(date)}, ${time}`;
}

/** The moment as the `dateTime` attribute of a `<time>` element (ISO 8601), or undefined when it does not parse. */
export function machineDate(value: DateValue): string | undefined {
  return toDate(value)?.toISOString();
}
