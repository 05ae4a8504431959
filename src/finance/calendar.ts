/**
 * Calendar days and months of the finance service, always in UTC: "today" is the UTC date of the
 * current instant, so every instance and every time zone agree on it. Days are 'YYYY-MM-DD',
 * months 'YYYY-MM' (both sort as text). Plus the exact text of an amount in cents.
 */

/** The UTC calendar day of an instant (epoch ms). */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The UTC month of an instant. */
export const utcMonth = (ms: number): string => utcDay(ms).slice(0, 7);

const parseDay = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));

/** The day `days` after `day` (negative: before). */
export const addDays = (day: string, days: number): string => utcDay(parseDay(day) + days * 86_400_000);

/** The month before `month`. */
export function previousMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? `${String(year - 1).padStart(4, '0')}-12` : `${month.slice(0, 4)}-${String(m - 1).padStart(2, '0')}`;
}

/** How many days `month` has. */
export const daysInMonth = (month: string): number =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/** The first day of `month` and the first day of the month after it (a half-open range of days). */
export function monthRange(month: string): { first: string; next: string } {
  const first = `${month}-01`;
  return { first, next: addDays(first, daysInMonth(month)) };
}

/** Cents as a decimal with two digits after a dot, exactly: 123456 -> "1234.56", -5 -> "-0.05". */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
