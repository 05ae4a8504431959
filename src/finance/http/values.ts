import { Type, type TUnsafe } from '@sinclair/typebox';
import { HttpError, invalidField } from '../../core/http/errors.js';
import { alternatives, t } from '../../core/i18n/catalogue.js';

/**
 * Money and calendar dates at the edge of the finance API.
 *
 * Money is stored as integer cents and shown as a decimal number with at most two decimals.
 * A JSON number is converted through its shortest round-trip text (`String(1234.56)` is
 * "1234.56"), so the conversion is exact and `12.345` or `0.30000000000000004` are refused
 * instead of rounded. Cents go back out as `cents / 100`, the double nearest to the decimal,
 * which JSON writes as that decimal again.
 */

/** One of the listed strings (a plain JSON-schema `enum`, so a refusal reads "must be equal to one of the allowed values"). */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** The largest amount accepted: 999,999,999,999.99 (cents stay far below 2^53). */
export const MAX_AMOUNT = 999_999_999_999.99;

/** An amount in the API: a decimal number with at most 2 decimals (checked by `toCents`). */
export const Money = (options: { minimum?: number; description?: string } = {}) =>
  Type.Number({
    minimum: options.minimum ?? 0.01,
    maximum: MAX_AMOUNT,
    description: options.description ?? 'decimal amount with at most 2 decimals, e.g. 1234.56',
  });

/** A calendar date 'YYYY-MM-DD' (ajv's `date` format checks the day exists: 2025-02-30 is refused). */
export const DateString = (description = "calendar date 'YYYY-MM-DD'") =>
  Type.String({ format: 'date', maxLength: 10, description });

/** ISO 4217 code, upper case. */
export const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  minLength: 3,
  maxLength: 3,
  description: "ISO 4217 code, default 'BRL'",
});
export const DEFAULT_CURRENCY = 'BRL';

/** Free text fields: required names (1..200) and optional notes (up to 2000). */
export const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Note = Type.String({ maxLength: 2000 });
export const Category = Type.String({ minLength: 1, maxLength: 100 });

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Integer cents of an API amount; 422 naming `field` when it has more than 2 decimals. */
export function toCents(field: string, value: number): number {
  const match = Number.isFinite(value) && value >= 0 ? DECIMAL.exec(String(value)) : null;
  if (!match) throw invalidField(field, 'must be a decimal number with at most 2 decimal places');
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents > Math.round(MAX_AMOUNT * 100)) throw invalidField(field, t('must be at most %{max}', { max: MAX_AMOUNT }));
  return cents;
}

/** The API amount of integer cents. */
export const fromCents = (cents: number): number => cents / 100;

/** A trimmed required text; 422 when it is blank. */
export function requiredText(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidField(field, 'must not be blank');
  return trimmed;
}

/** A trimmed optional text: blank or null becomes null; undefined stays undefined (not sent). */
export function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Query filters of a period on a date column, both ends inclusive. */
export const PeriodQuery = {
  from: Type.Optional(DateString("first day of the period, inclusive ('YYYY-MM-DD')")),
  to: Type.Optional(DateString("last day of the period, inclusive ('YYYY-MM-DD')")),
};

/** 422 when `from` is after `to`. */
export function checkPeriod(period: { from?: string; to?: string }): void {
  if (period.from && period.to && period.from > period.to) throw invalidField('from', 'must not be after to');
}

/** The sentence of each refused state change: what, then what it would have become. */
const TRANSITIONS = {
  bill: {
    paid: 'This bill is %{status}: only %{allowed} bills can be paid',
    cancelled: 'This bill is %{status}: only %{allowed} bills can be cancelled',
  },
  invoice: {
    issued: 'This invoice is %{status}: only %{allowed} invoices can be issued',
    paid: 'This invoice is %{status}: only %{allowed} invoices can be paid',
    cancelled: 'This invoice is %{status}: only %{allowed} invoices can be cancelled',
  },
  contract: { cancelled: 'This contract is %{status}: only %{allowed} contracts can be cancelled' },
} as const;

type Transitions = typeof TRANSITIONS;
type TransitionKey = { [W in keyof Transitions]: Transitions[W][keyof Transitions[W]] }[keyof Transitions];

/**
 * A state change the resource's current status does not allow: 409 `invalid_transition`, nothing
 * changed. `invalidTransition('bill', 'paid', ['open'], 'paid')`: "This bill is paid: only open
 * bills can be paid".
 */
export function invalidTransition<W extends keyof Transitions>(
  what: W,
  status: string,
  allowedFrom: readonly string[],
  done: keyof Transitions[W],
): HttpError {
  const sentence: TransitionKey = (TRANSITIONS[what] as Record<PropertyKey, TransitionKey>)[done];
  return new HttpError(409, 'invalid_transition', t(sentence, { status, allowed: alternatives(allowedFrom) }), [
    { field: 'status', message: t('is %{status}', { status }) },
  ]);
}
