/** Chatwoot's snooze choices: until the next reply, until tomorrow 9:00, until next Monday 9:00 (local time). */
export interface SnoozeOption {
  key: 'nextReply' | 'tomorrow' | 'nextWeek';
  /** UNIX seconds; null: until the contact replies. */
  until: number | null;
}

export function snoozeOptions(now = new Date()): SnoozeOption[] {
  const at9 = (days: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() + days);
    d.setHours(9, 0, 0, 0);
    return Math.floor(d.getTime() / 1000);
  };
  const toMonday = (8 - now.getDay()) % 7 || 7;
  return [
    { key: 'nextReply', until: null },
    { key: 'tomorrow', until: at9(1) },
    { key: 'nextWeek', until: at9(toMonday) },
  ];
}
