/** Timestamps are stored as epoch milliseconds; these render them for responses. */
export function toIso(ms: number): string;
export function toIso(ms: number | null | undefined): string | null;
export function toIso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export function toUnix(ms: number): number;
export function toUnix(ms: number | null | undefined): number | null;
export function toUnix(ms: number | null | undefined): number | null {
  return ms === null || ms === undefined ? null : Math.floor(ms / 1000);
}

/** Parses a stored JSON document, tolerating a corrupt value as an empty object. */
export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The latest time a timestamp input may name: 9999-12-31T23:59:59Z, in UNIX seconds. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/**
 * What a timestamp input names: the instant it starts at and the end (exclusive) of the span its
 * precision covers, both in epoch milliseconds. `2031-09-15` is that whole UTC day, `2031-09-15T09:00`
 * that minute, `2031-09-15T09:00:00` that second, `1789833600` (UNIX seconds) that second. A range's
 * `until` is inclusive of the span it names, so `until=2031-09-15` takes in the whole day.
 */
export interface TimeSpan {
  start: number;
  end: number;
}

// Date, then optionally a time (with or without seconds and a fraction) and an offset (Z, ±HH, ±HHMM, ±HH:MM).
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * The one reading of every timestamp input (decisions/0028): ISO 8601 with or without an offset
 * (without one, the time is UTC: accounts have no time zone, and n8n's date fields send none),
 * a date alone (that UTC day), or UNIX seconds as an integer or its digits. Undefined for anything
 * else, including dates that do not exist (2031-02-30) and times past 9999.
 */
export function parseTimestamp(value: string | number): TimeSpan | undefined {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > MAX_UNIX_SECONDS) return undefined;
    return { start: value * 1000, end: value * 1000 + 1000 };
  }
  const text = value.trim();
  if (UNIX_SECONDS.test(text)) return parseTimestamp(Number(text));
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, offset] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  const date = new Date(day);
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d))
    return undefined;
  if (h === undefined) return { start: day, end: day + 86_400_000 };
  if (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59)) return undefined;
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const local = day + ((Number(h) * 60 + Number(mi)) * 60 + Number(s ?? 0)) * 1000 + ms;
  const start = local - offsetMinutes(offset) * 60_000;
  const precision = fraction !== undefined ? 1 : s !== undefined ? 1000 : 60_000;
  if (!Number.isFinite(start) || start < 0 || start > MAX_UNIX_SECONDS * 1000 + 999) return undefined;
  return { start, end: start + precision };
}

/** Minutes east of UTC of an ISO 8601 offset (none and Z are 0). */
function offsetMinutes(offset: string | undefined): number {
  if (!offset || offset === 'Z' || offset === 'z') return 0;
  const sign = offset[0] === '-' ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
  if (hours > 23 || minutes > 59) return Number.NaN;
  return sign * (hours * 60 + minutes);
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
