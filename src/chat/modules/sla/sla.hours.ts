import type { WorkingDay } from '../inboxes/inboxes.schema.js';

/**
 * Business time: deadlines that count only an inbox's working hours, in its time zone (daylight
 * saving included, through Intl). Pure functions of instants in epoch milliseconds.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset at an instant: local wall-clock time minus UTC (ms). */
export function offsetAt(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The instant of a local wall-clock time: `minutes` after midnight of the local date (y, m, d). */
function localToUtc(timeZone: string, y: number, m: number, d: number, minutes: number): number {
  const wall = Date.UTC(y, m, d) + minutes * 60_000;
  const first = wall - offsetAt(timeZone, wall);
  const second = wall - offsetAt(timeZone, first);
  return second;
}

const isOpen = (day: WorkingDay | undefined) => day !== undefined && !day.closed_all_day;

/**
 * The open hours of each local day from the local date of `start` on, as instants: `[open, close)`
 * in order (days closed all day skipped). Stops after `maxDays` local days.
 */
function* openIntervals(
  start: number,
  byDay: ReadonlyMap<number, WorkingDay>,
  timeZone: string,
  maxDays: number,
): Generator<[number, number]> {
  const local = new Date(start + offsetAt(timeZone, start));
  const [y, m, d0] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  for (let i = 0; i < maxDays; i++) {
    const date = new Date(Date.UTC(y, m, d0 + i));
    const day = byDay.get(date.getUTCDay());
    if (!day || !isOpen(day)) continue;
    const openMin = day.open_all_day ? 0 : (day.open_hour ?? 0) * 60 + (day.open_minutes ?? 0);
    const closeMin = day.open_all_day ? 1440 : (day.close_hour ?? 24) * 60 + (day.close_minutes ?? 0);
    const [dy, dm, dd] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
    yield [localToUtc(timeZone, dy, dm, dd, openMin), localToUtc(timeZone, dy, dm, dd, closeMin)];
  }
}

const byDayOf = (days: readonly WorkingDay[]) => new Map(days.map((d) => [d.day_of_week, d]));
const anyOpen = (byDay: ReadonlyMap<number, WorkingDay>) => [0, 1, 2, 3, 4, 5, 6].some((d) => isOpen(byDay.get(d)));

/**
 * `start` plus `ms` of working time: the time counts only inside the open hours of each local
 * day. Without any open day, wall-clock time.
 */
export function addBusinessTime(start: number, ms: number, days: readonly WorkingDay[], timeZone: string): number {
  const byDay = byDayOf(days);
  if (!anyOpen(byDay)) return start + ms;
  let remaining = ms;
  // Eight years of days at most: a threshold longer than that is not a business deadline.
  for (const [open, close] of openIntervals(start, byDay, timeZone, 3000)) {
    const from = Math.max(start, open);
    if (from >= close) continue;
    if (remaining <= close - from) return from + remaining;
    remaining -= close - from;
  }
  return start + ms;
}

/**
 * The working time (ms) between two instants: the part of `[start, end)` inside the open hours of
 * each local day. Without any open day, wall-clock time (as addBusinessTime counts it).
 */
export function businessTimeBetween(start: number, end: number, days: readonly WorkingDay[], timeZone: string): number {
  if (end <= start) return 0;
  const byDay = byDayOf(days);
  if (!anyOpen(byDay)) return end - start;
  // Every local day the range touches, plus one for a time zone's shifts.
  const maxDays = Math.ceil((end - start) / 86_400_000) + 2;
  let total = 0;
  for (const [open, close] of openIntervals(start, byDay, timeZone, maxDays)) {
    if (open >= end) break;
    const overlap = Math.min(end, close) - Math.max(start, open);
    if (overlap > 0) total += overlap;
  }
  return total;
}
