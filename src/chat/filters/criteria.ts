import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { invalidField } from '../../core/http/errors.js';
import { t, type Text } from '../../core/i18n/catalogue.js';
import { parseTimestamp } from '../../core/time.js';
import type { Q } from '../context.js';
import type { ChatDatabase } from '../db/schema.js';

/**
 * The filter engine's shared parts (the one home of filters: conversations, contacts, custom
 * attributes and automation rule conditions build on it): criteria as Chatwoot sends them, the
 * operators, chaining with `query_operator` (AND binding tighter than OR), reading values with a
 * 422 naming them, and the contract of custom attribute criteria (the customAttributeCriteria
 * extension point, which the custom attributes module fills).
 */

export const FILTER_OPERATORS = [
  'equal_to',
  'not_equal_to',
  'contains',
  'does_not_contain',
  'is_present',
  'is_not_present',
  'is_greater_than',
  'is_less_than',
  'days_before',
  'starts_with',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCriterion {
  attribute_key: string;
  filter_operator: string;
  values?: readonly unknown[] | null;
  query_operator?: string | null;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Compiles each criterion (`compile` answers 422 for a bad one) and chains them with their
 * `query_operator`s, AND binding tighter than OR. Shared by the conversation and contact filters.
 */
export function chainCriteria<DB, TB extends keyof DB>(
  criteria: readonly FilterCriterion[],
  field: string,
  compile: (criterion: FilterCriterion, path: string) => (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>,
): (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool> {
  if (criteria.length === 0) throw invalidField(field, 'must contain at least one condition');
  const conditions = criteria.map((c, i) => compile(c, `${field}.${i}`));
  const joiners = criteria.slice(0, -1).map((c, i) => {
    const op = (c.query_operator ?? 'and').toLowerCase();
    if (op !== 'and' && op !== 'or')
      throw invalidField(
        `${field}.${i}.query_operator`,
        t("'%{operator}' is not supported (use AND or OR)", { operator: String(c.query_operator) }),
      );
    return op;
  });
  return (eb) => {
    const groups: Expression<SqlBool>[][] = [[conditions[0](eb)]];
    joiners.forEach((op, i) => {
      if (op === 'or') groups.push([]);
      groups[groups.length - 1].push(conditions[i + 1](eb));
    });
    return eb.or(groups.map((g) => eb.and(g)));
  };
}

/** Reads criterion values of one type, or answers 422 naming the values. */
export class ValueReader {
  constructor(
    private readonly raw: readonly unknown[],
    private readonly path: string,
  ) {}

  private fail(message: Text): never {
    throw invalidField(this.path, message);
  }

  strings(): string[] {
    const out = this.raw.map((v) =>
      typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : this.fail('must be strings'),
    );
    return out.filter((s) => s !== '').length > 0 ? out.filter((s) => s !== '') : this.fail('must not be empty');
  }

  enums(allowed: readonly string[]): string[] {
    return this.strings().map((s) => {
      const v = s.toLowerCase();
      return allowed.includes(v)
        ? v
        : this.fail(t("'%{value}' is not one of %{allowed}", { value: s, allowed: allowed.join(', ') }));
    });
  }

  ids(): number[] {
    return this.raw.map((v) => {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,10}$/.test(v.trim()) ? Number(v) : NaN;
      return Number.isInteger(n) && n >= 0 && n <= 2147483647 ? n : this.fail('must be integer ids');
    });
  }

  days(): number {
    const n = this.ids()[0];
    return n <= 36_500 ? n : this.fail('must be a number of days up to 36500');
  }

  /** An ISO 8601 date or time (without an offset, UTC), or UNIX seconds, as epoch milliseconds. */
  instant(): number {
    const v = this.raw[0];
    if (typeof v === 'number' && Number.isFinite(v)) return Math.round(v * 1000);
    const span = typeof v === 'string' ? parseTimestamp(v) : undefined;
    return span ? span.start : this.fail('must be an ISO 8601 date or UNIX seconds');
  }
}

/** The tables whose rows carry custom attributes a filter may name. */
export type FilteredTable = 'conversations' | 'contacts';

/** The condition a custom attribute criterion becomes on its table. */
export type CustomAttributeCondition<T extends FilteredTable> = (
  eb: ExpressionBuilder<ChatDatabase, T>,
) => Expression<SqlBool>;

/** The filter's `extraAttribute`: the condition for a criterion on a defined key, else undefined. */
export type ExtraCriterion<T extends FilteredTable> = (
  criterion: FilterCriterion,
  path: string,
) => CustomAttributeCondition<T> | undefined;

/** What the conversation and contact services ask once per filter request (the custom attributes module answers). */
export interface CustomAttributeCriteria {
  /** `q`: the caller's transaction, if it has one open. */
  criteriaFor<T extends FilteredTable>(
    accountId: number,
    table: T,
    criteria: readonly FilterCriterion[],
    q?: Q,
  ): Promise<ExtraCriterion<T> | undefined>;
}
