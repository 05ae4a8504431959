import { describe, expect, it } from 'vitest';
import { parseTimestamp, utcDate } from './time.js';

const at = (iso: string) => Date.parse(iso);

describe('parseTimestamp: the one reading of timestamp inputs', () => {
  it('reads ISO 8601 with an offset, and without one as UTC', () => {
    expect(parseTimestamp('2031-09-15T09:00:00Z')).toEqual({
      start: at('2031-09-15T09:00:00Z'),
      end: at('2031-09-15T09:00:01Z'),
    });
    // n8n's date fields send no offset: UTC, whatever the server's own time zone.
    expect(parseTimestamp('2031-09-15T09:00:00')?.start).toBe(at('2031-09-15T09:00:00Z'));
    expect(parseTimestamp('2031-09-15 09:00:00')?.start).toBe(at('2031-09-15T09:00:00Z'));
    for (const offset of ['-03:00', '-0300', '-03'])
      expect(parseTimestamp(`2031-09-15T09:00:00${offset}`)?.start, offset).toBe(at('2031-09-15T12:00:00Z'));
    expect(parseTimestamp('2031-09-15T09:00:00+05:30')?.start).toBe(at('2031-09-15T03:30:00Z'));
  });

  it('names the span of its precision: a day, a minute, a second, a millisecond', () => {
    const span = (text: string) => {
      const s = parseTimestamp(text)!;
      return s.end - s.start;
    };
    expect(span('2031-09-15')).toBe(86_400_000);
    expect(parseTimestamp('2031-09-15')?.start).toBe(at('2031-09-15T00:00:00Z'));
    expect(span('2031-09-15T09:00')).toBe(60_000);
    expect(span('2031-09-15T09:00:00')).toBe(1000);
    expect(span('2031-09-15T09:00:00.250Z')).toBe(1);
    expect(parseTimestamp('2031-09-15T09:00:00.250123Z')?.start).toBe(at('2031-09-15T09:00:00.250Z'));
  });

  it('reads UNIX seconds as an integer or its digits', () => {
    expect(parseTimestamp(1_789_462_800)).toEqual({ start: 1_789_462_800_000, end: 1_789_462_801_000 });
    expect(parseTimestamp('1789462800')).toEqual(parseTimestamp(1_789_462_800));
    expect(parseTimestamp(0)?.start).toBe(0);
  });

  it('refuses what names no time', () => {
    for (const bad of [
      '',
      'tomorrow',
      '2031-02-30',
      '2031-13-01',
      '2031-09-15T24:00:00',
      '2031-09-15T09:60',
      '2031-09-15T09:00:00+25:00',
      '2031-09-15Z',
      '15/09/2031',
      '10000-01-01',
      '-1',
      '1.5',
    ])
      expect(parseTimestamp(bad), bad).toBeUndefined();
    for (const bad of [-1, 1.5, 253_402_300_800, Number.NaN]) expect(parseTimestamp(bad), String(bad)).toBeUndefined();
  });

  it('gives the UTC date of an instant', () => {
    expect(utcDate(parseTimestamp('2031-09-15T23:30:00-03:00')!.start)).toBe('2031-09-16');
    expect(utcDate(parseTimestamp('2031-09-15T09:00:00')!.start)).toBe('2031-09-15');
  });
});
