import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import { jsonTextField } from '../../../core/db/json-text.js';
import { jsonBooleanField, jsonDateField, jsonNumberField } from '../../../core/db/json-typed.js';
import { invalidField } from '../../../core/http/errors.js';
import type { ChatDatabase } from '../../db/schema.js';
import {
  escapeLike,
  FILTER_OPERATORS,
  ValueReader,
  type CustomAttributeCondition,
  type FilterCriterion,
  type FilteredTable,
  type FilterOperator,
} from '../../filters/criteria.js';
import type { AttributeModel, DisplayType } from './custom-attributes.migration.js';
import { t } from '../../../core/i18n/catalogue.js';

/**
 * Criteria on a defined custom attribute -> a SQL condition on the `custom_attributes` of
 * conversations or contacts. The conversation and contact filters take these as their
 * `extraAttribute`: a key that is not one of theirs is looked up among the account's definitions
 * of the right model (one query per request: CustomAttributesService.criteriaFor), and compared
 * with the operators of its display type. Every value is a bound parameter; the key is a defined
 * (snake_case) key, and travels bound too.
 */

/** The tables whose rows carry custom attributes, and the model of their definitions. */
export const MODEL_OF = {
  conversations: 'conversation_attribute',
  contacts: 'contact_attribute',
} as const satisfies Record<FilteredTable, AttributeModel>;

/** What a condition needs of a definition. */
export interface FilterableDefinition {
  attribute_key: string;
  attribute_display_type: DisplayType;
}

type Kind = 'text' | 'list' | 'number' | 'date' | 'checkbox';
const KIND_OF: Record<DisplayType, Kind> = {
  text: 'text',
  link: 'text',
  list: 'list',
  number: 'number',
  currency: 'number',
  percent: 'number',
  date: 'date',
  checkbox: 'checkbox',
};

const PRESENCE: FilterOperator[] = ['is_present', 'is_not_present'];
/** The operators of each display type (decisions/0019). */
export const OPERATORS_OF_TYPE: Record<Kind, FilterOperator[]> = {
  text: ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', 'starts_with', ...PRESENCE],
  list: ['equal_to', 'not_equal_to', ...PRESENCE],
  number: ['equal_to', 'not_equal_to', 'is_greater_than', 'is_less_than', ...PRESENCE],
  date: ['equal_to', 'not_equal_to', 'is_greater_than', 'is_less_than', 'days_before', ...PRESENCE],
  checkbox: ['equal_to', 'not_equal_to', ...PRESENCE],
};

const DAY_MS = 86_400_000;

export interface CustomConditionOptions {
  dialect: DialectName;
  /** Reference time for `days_before` (epoch ms); defaults to now. */
  now?: number;
}

/** The condition of one criterion on a defined attribute, or 422 naming the bad operator or values. */
export function customAttributeCondition<T extends FilteredTable>(
  table: T,
  definition: FilterableDefinition,
  c: FilterCriterion,
  path: string,
  options: CustomConditionOptions,
): CustomAttributeCondition<T> {
  const kind = KIND_OF[definition.attribute_display_type];
  const op = c.filter_operator as FilterOperator;
  if (!(FILTER_OPERATORS as readonly string[]).includes(op))
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not a supported operator", { operator: c.filter_operator }),
    );
  if (!OPERATORS_OF_TYPE[kind].includes(op))
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not supported for '%{key}' (%{type}: use %{operators})", {
        operator: op,
        key: c.attribute_key,
        type: definition.attribute_display_type,
        operators: OPERATORS_OF_TYPE[kind].join(', '),
      }),
    );
  const column = `${table}.custom_attributes`;
  const key = definition.attribute_key;
  const { dialect } = options;
  const text = () => jsonTextField(dialect, column, key);
  if (op === 'is_present' || op === 'is_not_present') {
    const present = op === 'is_present';
    return (eb) => {
      const filled = eb.and([eb(text(), 'is not', null), eb(text(), '!=', '')]);
      return present ? filled : eb.not(filled);
    };
  }
  const raw = (c.values ?? []).filter((v) => v !== null && v !== '');
  if (raw.length === 0) throw invalidField(`${path}.values`, 'must not be empty');
  const values = new ValueReader(raw, `${path}.values`);
  const negative = op === 'not_equal_to' || op === 'does_not_contain';
  /** A row without the value matches the negative operators (it is not equal to anything). */
  const signed = (eb: ExpressionBuilder<ChatDatabase, T>, field: Expression<unknown>, match: Expression<SqlBool>) =>
    negative ? eb.or([eb(field, 'is', null), eb.not(match)]) : match;

  switch (kind) {
    case 'text':
    case 'list': {
      const strings = values.strings();
      if (op === 'equal_to' || op === 'not_equal_to') {
        const lowered = strings.map((s) => s.toLowerCase());
        return (eb) => signed(eb, text(), eb(eb.fn('lower', [text()]), 'in', lowered));
      }
      const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
      const pattern = (s: string) => (op === 'starts_with' ? `${escapeLike(s)}%` : `%${escapeLike(s)}%`);
      return (eb) =>
        signed(eb, text(), eb.or(strings.map((s) => sql<SqlBool>`${text()} ${like} ${pattern(s)} escape '\\'`)));
    }
    case 'number': {
      const numbers = readNumbers(raw, `${path}.values`);
      const field = () => jsonNumberField(dialect, column, key);
      if (op === 'is_greater_than' || op === 'is_less_than')
        return (eb) => eb(field(), op === 'is_greater_than' ? '>' : '<', numbers[0]);
      return (eb) => signed(eb, field(), eb(field(), 'in', numbers));
    }
    case 'date': {
      const field = () => jsonDateField(dialect, column, key);
      if (op === 'days_before') {
        const cutoff = dayOf((options.now ?? Date.now()) - values.days() * DAY_MS);
        return (eb) => eb(field(), '<', cutoff);
      }
      const day = dayOf(values.instant());
      if (op === 'is_greater_than' || op === 'is_less_than')
        return (eb) => eb(field(), op === 'is_greater_than' ? '>' : '<', day);
      return (eb) => signed(eb, field(), eb(field(), '=', day));
    }
    case 'checkbox': {
      const wanted = readBoolean(raw[0], `${path}.values`) ? 1 : 0;
      const field = () => jsonBooleanField(dialect, column, key);
      return (eb) => signed(eb, field(), eb(field(), '=', wanted));
    }
  }
}

/** The UTC calendar day of an instant, as the text days compare as. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const NUMBER_TEXT = /^\s*-?(\d+\.?\d*|\.\d+)\s*$/;

/** Numbers, or their decimal text; 422 otherwise. */
export function readNumbers(raw: readonly unknown[], path: string): number[] {
  return raw.map((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw invalidField(path, 'must be numbers');
    return n;
  });
}

/** true or false, also as text ("true", "1") or 1/0; 422 otherwise. */
export function readBoolean(value: unknown, path: string): boolean {
  if (value === true || value === false) return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalidField(path, 'must be true or false');
}
