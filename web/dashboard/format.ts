/**
 * Dates, times, sizes and money in the UI's language (Intl), one place for every screen.
 * Timestamps from the API are UNIX seconds unless said otherwise.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const unit = (locale: string, name: 'minute' | 'hour' | 'day', value: number) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);

/** How long ago, as short as a list row needs: "now", "5m", "3h", "2d", then the date. */
export function shortAgo(unixSeconds: number, locale: string, nowMs = Date.now(), nowWord = 'now'): string {
  const seconds = Math.max(0, Math.floor(nowMs / 1000) - unixSeconds);
  if (seconds < MINUTE) return nowWord;
  if (seconds < HOUR) return unit(locale, 'minute', Math.floor(seconds / MINUTE));
  if (seconds < DAY) return unit(locale, 'hour', Math.floor(seconds / HOUR));
  if (seconds < 7 * DAY) return unit(locale, 'day', Math.floor(seconds / DAY));
  const date = new Date(unixSeconds * 1000);
  const sameYear = date.getFullYear() === new Date(nowMs).getFullYear();
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}

/** A full date and time ("4 March 2031, 14:05"). */
export const dateTime = (unixSeconds: number, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(unixSeconds * 1000);

/** A time of day ("14:05"). */
export const timeOfDay = (unixSeconds: number, locale: string): string =>
  new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(unixSeconds * 1000);

/** A date ("4 Mar 2031"). */
export const dateOnly = (unixSeconds: number, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(unixSeconds * 1000);

/** A file's size ("2.4 MB"). */
export function fileSize(bytes: number, locale: string): string {
  const units = ['kilobyte', 'megabyte', 'gigabyte'] as const;
  // Under a kilobyte reads as a tenth of one at least ("0.1 kB"), as file managers do.
  let value = Math.max(bytes / 1024, 0.1);
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[i],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/** An amount of money in its currency ("R$ 1.234,50"). */
export function money(value: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale).format(value)} ${currency}`;
  }
}
