/**
 * An inbox's working hours as the public inbox gives them (Chatwoot's shape: seven days, day 0 is
 * Sunday, times in the inbox's IANA time zone, a close of 24:00 meaning midnight): whether the
 * inbox is open at a moment. Without working hours enabled it always is.
 */

export interface WorkingDay {
  day_of_week: number;
  closed_all_day?: boolean;
  open_all_day?: boolean;
  open_hour?: number | null;
  open_minutes?: number | null;
  close_hour?: number | null;
  close_minutes?: number | null;
}

export interface InboxHours {
  timezone: string;
  working_hours_enabled: boolean;
  /** `WorkingDay`s; the public inbox's document leaves them open, so they are read field by field. */
  working_hours: readonly object[];
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The day of the week and the minutes since midnight of `at` in `timeZone` (UTC when the name is unknown). */
export function localTime(at: Date, timeZone: string): { day: number; minutes: number } {
  const options = { weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' } as const;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return { day: DAYS.indexOf(parts.weekday), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

export function isOpenAt(inbox: InboxHours, at: Date): boolean {
  if (!inbox.working_hours_enabled) return true;
  const { day, minutes } = localTime(at, inbox.timezone);
  const today = (inbox.working_hours as readonly Partial<WorkingDay>[]).find((d) => d.day_of_week === day);
  if (!today || today.closed_all_day) return false;
  if (today.open_all_day) return true;
  const open = Number(today.open_hour ?? 0) * 60 + Number(today.open_minutes ?? 0);
  const close = Number(today.close_hour ?? 0) * 60 + Number(today.close_minutes ?? 0);
  return minutes >= open && minutes < close;
}
