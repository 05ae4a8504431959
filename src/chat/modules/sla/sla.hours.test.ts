import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKING_HOURS, type WorkingDay } from '../inboxes/inboxes.schema.js';
import { addBusinessTime, businessTimeBetween } from './sla.hours.js';

/** The business calendar (pure): working time between two instants, and its inverse for deadlines. */
const HOUR = 3_600_000;
const weekdays = DEFAULT_WORKING_HOURS; // Monday to Friday 09:00-17:00

describe('businessTimeBetween', () => {
  it('counts only the open hours of each local day, in the time zone', () => {
    // Friday 6 March 2026 16:00 to Monday 9 March 10:00 in São Paulo (UTC-3): 1 h + 1 h.
    const friday = Date.UTC(2026, 2, 6, 19, 0);
    const monday = Date.UTC(2026, 2, 9, 13, 0);
    expect(businessTimeBetween(friday, monday, weekdays, 'America/Sao_Paulo')).toBe(2 * HOUR);
    // The same instants read in UTC: Friday 19:00 is closed, Monday 13:00 is 4 h into the day.
    expect(businessTimeBetween(friday, monday, weekdays, 'UTC')).toBe(4 * HOUR);
    // Inside one open stretch, all of it; a closed stretch, nothing; an empty or inverted range, nothing.
    expect(businessTimeBetween(monday, monday + 30 * 60_000, weekdays, 'America/Sao_Paulo')).toBe(30 * 60_000);
    expect(businessTimeBetween(friday + 2 * HOUR, friday + 20 * HOUR, weekdays, 'America/Sao_Paulo')).toBe(0);
    expect(businessTimeBetween(monday, friday, weekdays, 'America/Sao_Paulo')).toBe(0);
    // Two full weeks: ten days of eight hours.
    expect(businessTimeBetween(monday, monday + 14 * 24 * HOUR, weekdays, 'America/Sao_Paulo')).toBe(80 * HOUR);
  });

  it('follows daylight saving: a day open all day that loses an hour counts 23', () => {
    // Europe/Berlin moves to summer time on Sunday 29 March 2026.
    const sundays: WorkingDay[] = weekdays.map((d) =>
      d.day_of_week === 0 ? { ...d, closed_all_day: false, open_all_day: true } : d,
    );
    const saturdayNoonUtc = Date.UTC(2026, 2, 28, 12, 0);
    const mondayMidnightBerlin = Date.UTC(2026, 2, 29, 22, 0); // Monday 00:00 CEST
    expect(businessTimeBetween(saturdayNoonUtc, mondayMidnightBerlin, sundays, 'Europe/Berlin')).toBe(23 * HOUR);
  });

  it('counts wall-clock time when no day is open, and is the inverse of addBusinessTime', () => {
    const closed = weekdays.map((d) => ({ ...d, closed_all_day: true }));
    const start = Date.UTC(2026, 2, 6, 19, 0);
    expect(businessTimeBetween(start, start + 50 * HOUR, closed, 'America/Sao_Paulo')).toBe(50 * HOUR);
    for (const ms of [HOUR, 7 * HOUR, 30 * HOUR]) {
      const due = addBusinessTime(start, ms, weekdays, 'America/Sao_Paulo');
      expect(businessTimeBetween(start, due, weekdays, 'America/Sao_Paulo')).toBe(ms);
    }
  });
});
