// What a date written by the site looks like in the e2e tests, spelled out by hand: "27 Nov 2026".

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Today as the pages write it, e.g. "27 Nov 2026" (the browser and the tests both run in the machine's time zone). */
export function todayOnPages(now = new Date()): string {
  return `${now.getDate()} ${MONTHS[now.getMonth()]} ${now.getFullYear()}`;
}

/** Today with a 24-hour time after it, as the admin lists write a moment: "27 Nov 2026, 15:21". */
export function todayWithTime(now = new Date()): RegExp {
  return new RegExp(`^${todayOnPages(now)}, ([01]\\d|2[0-3]):[0-5]\\d$`);
}

/** A moment as the pages write it to the minute: "27 Nov 2026, 15:21" (the browser runs in the tests' time zone). */
export function onPagesWithTime(moment: Date): string {
  const time = `${String(moment.getHours()).padStart(2, '0')}:${String(moment.getMinutes()).padStart(2, '0')}`;
  return `${todayOnPages(moment)}, ${time}`;
}
