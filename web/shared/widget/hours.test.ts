import { describe, expect, it } from 'vitest';
import { isOpenAt, localTime, type WorkingDay } from './hours.js';

const weekdays = (open: number, close: number): WorkingDay[] =>
  [0, 1, 2, 3, 4, 5, 6].map((day) =>
    day === 0 || day === 6
      ? { day_of_week: day, closed_all_day: true }
      : { day_of_week: day, open_hour: open, open_minutes: 0, close_hour: close, close_minutes: 0 },
  );

describe("an inbox's working hours", () => {
  it("reads the moment in the inbox's time zone", () => {
    // 2026-03-02 is a Monday; 12:30 UTC is 09:30 in São Paulo (UTC-3).
    expect(localTime(new Date('2026-03-02T12:30:00Z'), 'America/Sao_Paulo')).toEqual({ day: 1, minutes: 570 });
    // 01:00 UTC on Monday is still Sunday 22:00 there.
    expect(localTime(new Date('2026-03-02T01:00:00Z'), 'America/Sao_Paulo')).toEqual({ day: 0, minutes: 1320 });
    expect(localTime(new Date('2026-03-02T01:00:00Z'), 'Not/AZone')).toEqual({ day: 1, minutes: 60 });
  });

  it('is open inside the day’s hours only, always when not enabled', () => {
    const inbox = { timezone: 'America/Sao_Paulo', working_hours_enabled: true, working_hours: weekdays(9, 17) };
    expect(isOpenAt(inbox, new Date('2026-03-02T11:59:00Z'))).toBe(false); // 08:59
    expect(isOpenAt(inbox, new Date('2026-03-02T12:00:00Z'))).toBe(true); // 09:00
    expect(isOpenAt(inbox, new Date('2026-03-02T19:59:00Z'))).toBe(true); // 16:59
    expect(isOpenAt(inbox, new Date('2026-03-02T20:00:00Z'))).toBe(false); // 17:00
    expect(isOpenAt(inbox, new Date('2026-03-01T15:00:00Z'))).toBe(false); // Sunday
    expect(isOpenAt({ ...inbox, working_hours_enabled: false }, new Date('2026-03-01T15:00:00Z'))).toBe(true);
  });

  it('takes open all day, and a close at 24:00 as midnight', () => {
    const days: WorkingDay[] = [
      { day_of_week: 0, open_all_day: true },
      { day_of_week: 1, open_hour: 20, open_minutes: 0, close_hour: 24, close_minutes: 0 },
    ];
    const inbox = { timezone: 'UTC', working_hours_enabled: true, working_hours: days };
    expect(isOpenAt(inbox, new Date('2026-03-01T03:00:00Z'))).toBe(true);
    expect(isOpenAt(inbox, new Date('2026-03-02T23:59:00Z'))).toBe(true);
    expect(isOpenAt(inbox, new Date('2026-03-02T19:59:00Z'))).toBe(false);
    expect(isOpenAt(inbox, new Date('2026-03-03T10:00:00Z'))).toBe(false); // Tuesday: not listed
  });
});
