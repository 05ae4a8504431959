import { Type } from '@sinclair/typebox';
import { MAX_UNIX_SECONDS, parseTimestamp, type TimeSpan } from '../time.js';
import { allOf, t } from '../i18n/catalogue.js';
import { invalidField, unprocessable } from './errors.js';

/**
 * Timestamp inputs, read one way everywhere (decisions/0028): the schema every timestamp field and
 * parameter uses, and the readings services make of it. What a value means is `parseTimestamp`'s
 * (core/time.ts): ISO 8601 with or without an offset (none is UTC), a date alone, or UNIX seconds.
 */

/** Ajv format of the text forms (registered in validation.ts). */
export const TIMESTAMP_FORMAT = 'timestamp';
export const isTimestampText = (text: string): boolean => parseTimestamp(text) !== undefined;

const FORMS =
  'ISO 8601 (2031-09-15T09:00:00Z, 2031-09-15T09:00:00-03:00; without an offset the time is UTC), a date (2031-09-15: that UTC day) or UNIX seconds';

/** The schema of a timestamp input: ISO 8601 text or UNIX seconds. */
export const TimestampInput = (description?: string) =>
  Type.Union(
    [Type.String({ format: TIMESTAMP_FORMAT, maxLength: 40 }), Type.Integer({ minimum: 0, maximum: MAX_UNIX_SECONDS })],
    { description: description ? `${description}: ${FORMS}` : FORMS, examples: ['2031-09-15T09:00:00Z'] },
  );

export type Timestamp = string | number;

/** The span a timestamp input names, or a 422 on `field` (the schema has normally refused it already). */
export function spanOf(value: Timestamp, field: string): TimeSpan {
  const span = parseTimestamp(value);
  if (!span)
    throw invalidField(
      field,
      'must be ISO 8601 (2031-09-15T09:00:00Z, 2031-09-15T09:00:00-03:00; without an offset the time is UTC), a date (2031-09-15: that UTC day) or UNIX seconds',
    );
  return span;
}

/** The instant a timestamp input names (its start), in epoch milliseconds. */
export const instantOf = (value: Timestamp, field: string): number => spanOf(value, field).start;

export interface RangeOptions {
  /** The names of the two ends, as the request spells them (default since, until). */
  fields?: readonly [string, string];
  /** Both ends are required: a missing one is a 422 naming it. */
  required?: boolean;
  /** A missing end defaults: `to` to `now`, `from` to `days` days before `to` (the last N days). */
  lastDays?: { days: number; now: number };
}

/** A time range in epoch milliseconds: from (included) and to (excluded); an end is undefined when open. */
export interface TimeRange {
  from?: number;
  to?: number;
}

/**
 * A range from two timestamp inputs: `from` is where the first starts, `to` where the span the
 * second names ends (so `until=2031-09-15` includes that day, and UNIX seconds that second).
 * Missing ends (when required) and an end before the start are 422s naming the fields.
 */
export function timeRange(
  since: Timestamp | undefined,
  until: Timestamp | undefined,
  options: RangeOptions = {},
): TimeRange {
  const [sinceField, untilField] = options.fields ?? ['since', 'until'];
  if (options.lastDays) {
    const { days, now } = options.lastDays;
    const to = until === undefined ? now : spanOf(until, untilField).end;
    const from = since === undefined ? to - days * 86_400_000 : spanOf(since, sinceField).start;
    return checked(from, to, sinceField, untilField);
  }
  if (options.required) {
    const missing = [since === undefined ? sinceField : null, until === undefined ? untilField : null].filter(
      (f): f is string => f !== null,
    );
    if (missing.length > 0)
      throw unprocessable(
        missing.length > 1
          ? t('%{fields} are required', { fields: allOf(missing) })
          : t('%{field} is required', { field: allOf(missing) }),
        missing.map((field) => ({ field, message: 'is required' })),
      );
  }
  const from = since === undefined ? undefined : spanOf(since, sinceField).start;
  const to = until === undefined ? undefined : spanOf(until, untilField).end;
  return checked(from, to, sinceField, untilField);
}

function checked<R extends TimeRange>(from: R['from'], to: R['to'], sinceField: string, untilField: string): R {
  if (from !== undefined && to !== undefined && to <= from)
    throw unprocessable(t('%{later} must not be before %{earlier}', { later: untilField, earlier: sinceField }), [
      { field: sinceField, message: t('must not be after %{field}', { field: untilField }) },
      { field: untilField, message: t('must not be before %{field}', { field: sinceField }) },
    ]);
  return { from, to } as R;
}

/** The query parameters of a range, with the names NooviChat's clients use for them. */
export interface RangeQueryParams {
  since?: Timestamp;
  until?: Timestamp;
  /** since, as NooviChat's clients name it (since wins when both are sent). */
  from?: Timestamp;
  /** until, as NooviChat's clients name it. */
  to?: Timestamp;
}

/** `timeRange` over since/until, or from/to where those are what the client sent (422s name what it sent). */
export function rangeOf(query: RangeQueryParams, options: Omit<RangeOptions, 'fields'> = {}): TimeRange {
  const sinceField = query.since === undefined && query.from !== undefined ? 'from' : 'since';
  const untilField = query.until === undefined && query.to !== undefined ? 'to' : 'until';
  return timeRange(query.since ?? query.from, query.until ?? query.to, {
    ...options,
    fields: [sinceField, untilField],
  });
}
