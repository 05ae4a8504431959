import { invalidField } from '../../../core/http/errors.js';
import { t } from '../../../core/i18n/catalogue.js';

/**
 * Money of deals, exact: a card's value is stored as an integer count of its currency's minor unit
 * (cents for BRL and USD, yen for JPY, fils for KWD), read from the decimal text of the number the
 * client sent, never through a binary float multiplication. Totals add integers and convert once, so
 * 0.10 + 0.20 is 0.30 and 1234.56 stays 1234.56.
 */

export const DEFAULT_CURRENCY = 'BRL';
/** The largest value of one card (just under a trillion), so minor units stay exact in a double. */
export const MAX_VALUE_UNITS = 999_999_999_999;
/** The most decimal places any ISO 4217 currency has (KWD, BHD...). */
const MAX_EXPONENT = 3;

const KNOWN: ReadonlySet<string> = new Set(
  (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('currency') ?? [],
);

/** An ISO 4217 code this runtime knows, upper-cased; undefined otherwise. */
export function normalizeCurrency(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) return undefined;
  return KNOWN.size === 0 || KNOWN.has(upper) ? upper : undefined;
}

const exponents = new Map<string, number>();

/** Decimal places of a currency's minor unit (2 for BRL, 0 for JPY, 3 for KWD). */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    } catch {
      exponent = 2;
    }
    exponent = Math.min(Math.max(exponent ?? 2, 0), MAX_EXPONENT);
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** The decimal text of a JSON number or numeric string, or undefined when it is not a plain decimal. */
function decimalText(value: number | string): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // The shortest text that reads back as this double: what the client wrote (1234.56 -> "1234.56").
    const text = String(value);
    if (!/e/i.test(text)) return text;
    // Exponent notation: only tiny magnitudes get here below the maximum; spell them out.
    return value.toFixed(20).replace(/0+$/, '');
  }
  return value.trim();
}

/**
 * The value in minor units of `currency`. Refuses (422 on `field`) a negative value, a value over
 * the maximum, and more decimal places than the currency has (10.005 BRL): rounding money
 * silently is worse than asking again.
 */
export function toMinorUnits(value: number | string, currency: string, field = 'value'): number {
  const text = decimalText(value);
  const match = text === undefined ? null : /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw invalidField(field, 'must be a number of at least 0');
  const units = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (units.length > 12 || Number(units) > MAX_VALUE_UNITS)
    throw invalidField(field, t('must be at most %{max}', { max: MAX_VALUE_UNITS }));
  const exponent = currencyExponent(currency);
  if (fraction.length > exponent) {
    throw invalidField(
      field,
      exponent === 0
        ? t('must be a whole number in %{currency}', { currency })
        : t('has more than %{exponent} decimal places, which %{currency} does not have', { exponent, currency }),
    );
  }
  return Number(BigInt(units) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0'));
}

/** The value a client reads: minor units divided once by a power of ten (the nearest double to the exact decimal). */
export function fromMinorUnits(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/** A total per currency as the grouped query returns it: sum(value / 1e6) and sum(value % 1e6). */
export interface CurrencyTotal {
  currency: string;
  high: number | string | bigint | null;
  low: number | string | bigint | null;
}

/** The split of a sum that keeps every partial sum far from 64-bit overflow, however many cards. */
export const SPLIT = 1_000_000n;

const big = (v: number | string | bigint | null) => (v === null ? 0n : BigInt(typeof v === 'number' ? v : String(v)));

/**
 * Adds per-currency totals exactly and returns the sum as a number (currencies are added as they
 * are: converting between them is not this service's business, and boards usually use one).
 */
export function totalValue(totals: readonly CurrencyTotal[]): number {
  let thousandths = 0n;
  for (const t of totals) {
    const minor = big(t.high) * SPLIT + big(t.low);
    thousandths += minor * 10n ** BigInt(MAX_EXPONENT - currencyExponent(t.currency));
  }
  const negative = thousandths < 0n;
  const abs = negative ? -thousandths : thousandths;
  const scale = 10n ** BigInt(MAX_EXPONENT);
  const text = `${negative ? '-' : ''}${abs / scale}.${(abs % scale).toString().padStart(MAX_EXPONENT, '0')}`;
  return Number(text);
}
