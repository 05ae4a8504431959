import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import { jsonTextField } from '../../../core/db/json-text.js';
import { invalidField } from '../../../core/http/errors.js';
import type { ChatDatabase } from '../../db/schema.js';
import {
  chainCriteria,
  escapeLike,
  FILTER_OPERATORS,
  ValueReader,
  type FilterCriterion,
  type FilterOperator,
} from '../../filters/criteria.js';
import { t } from '../../../core/i18n/catalogue.js';

/**
 * Contact filter criteria -> a SQL condition on `contacts` (POST {A}/contacts/filter): the same
 * criteria format as the conversation filter (attribute_key, filter_operator, values,
 * query_operator), over Chatwoot's contact attributes. Keys and operators are whitelisted, every
 * value is a bound parameter, and text compares without regard to case.
 */

type EB = ExpressionBuilder<ChatDatabase, 'contacts'>;
export type ContactCondition = (eb: EB) => Expression<SqlBool>;

type Kind = 'text' | 'attribute' | 'labels' | 'date' | 'boolean';
interface AttributeSpec {
  kind: Kind;
  /** The contacts column (text, date, boolean), or the key of additional_attributes (attribute). */
  name: string;
}

const PRESENCE: FilterOperator[] = ['is_present', 'is_not_present'];
const TEXT_OPERATORS: FilterOperator[] = ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', 'starts_with'];

export const CONTACT_FILTER_ATTRIBUTES: Record<string, AttributeSpec> = {
  name: { kind: 'text', name: 'name' },
  email: { kind: 'text', name: 'email' },
  phone_number: { kind: 'text', name: 'phone_number' },
  identifier: { kind: 'text', name: 'identifier' },
  country_code: { kind: 'attribute', name: 'country_code' },
  city: { kind: 'attribute', name: 'city' },
  company: { kind: 'attribute', name: 'company' },
  labels: { kind: 'labels', name: 'labels' },
  created_at: { kind: 'date', name: 'created_at' },
  last_activity_at: { kind: 'date', name: 'last_activity_at' },
  blocked: { kind: 'boolean', name: 'blocked' },
};

const OPERATORS_OF: Record<Kind, FilterOperator[]> = {
  text: [...TEXT_OPERATORS, ...PRESENCE],
  attribute: [...TEXT_OPERATORS, ...PRESENCE],
  labels: ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', ...PRESENCE],
  date: ['is_greater_than', 'is_less_than', 'days_before', ...PRESENCE],
  boolean: ['equal_to', 'not_equal_to'],
};

const DAY_MS = 86_400_000;

export interface ContactFilterOptions {
  accountId: number;
  dialect: DialectName;
  /** Reference time for `days_before` (epoch ms); defaults to now. */
  now?: number;
  /** Name of the criteria array in error details (`payload` for the filter endpoint). */
  field?: string;
  /** Keys beyond the whitelist (defined custom attributes): the condition for a key it knows, else undefined. */
  extraAttribute?: (criterion: FilterCriterion, path: string) => ContactCondition | undefined;
}

/** Validates every criterion (422 naming the bad key, operator or value) and returns the condition. */
export function compileContactFilter(
  criteria: readonly FilterCriterion[],
  options: ContactFilterOptions,
): ContactCondition {
  const field = options.field ?? 'payload';
  return chainCriteria<ChatDatabase, 'contacts'>(criteria, field, (c, path) => compileOne(c, path, options));
}

function compileOne(c: FilterCriterion, path: string, options: ContactFilterOptions): ContactCondition {
  const spec = Object.hasOwn(CONTACT_FILTER_ATTRIBUTES, c.attribute_key)
    ? CONTACT_FILTER_ATTRIBUTES[c.attribute_key]
    : undefined;
  const extra = spec ? undefined : options.extraAttribute?.(c, path);
  if (extra) return extra;
  if (!spec)
    throw invalidField(`${path}.attribute_key`, t("'%{key}' is not a supported attribute", { key: c.attribute_key }));
  const op = c.filter_operator as FilterOperator;
  if (!(FILTER_OPERATORS as readonly string[]).includes(op))
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not a supported operator", { operator: c.filter_operator }),
    );
  if (!OPERATORS_OF[spec.kind].includes(op))
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not supported for '%{key}'", { operator: op, key: c.attribute_key }),
    );
  const raw = (c.values ?? []).filter((v) => v !== null && v !== '');
  const values = new ValueReader(raw, `${path}.values`);
  if (op === 'is_present' || op === 'is_not_present') return presence(spec, op === 'is_present', options);
  if (raw.length === 0) throw invalidField(`${path}.values`, 'must not be empty');

  switch (spec.kind) {
    case 'text':
    case 'attribute': {
      let strings = values.strings();
      // Phone numbers are stored in E.164 with their `+`; Chatwoot compares them so whether or not
      // the value has it (Evolution API sends the digits alone). Substrings are taken as given.
      if (spec.name === 'phone_number' && op !== 'contains' && op !== 'does_not_contain')
        strings = strings.map((s) => `+${s.replace(/^\+/, '')}`);
      return textCondition(spec, op, strings, options);
    }
    case 'labels': {
      const labels = values.strings().map((l) => l.toLowerCase());
      const positive = op === 'equal_to' || op === 'contains';
      return (eb) => eb('contacts.id', positive ? 'in' : 'not in', taggedWith(eb, options.accountId, labels));
    }
    case 'date': {
      const column = spec.name as 'created_at' | 'last_activity_at';
      if (op === 'days_before') {
        const cutoff = (options.now ?? Date.now()) - values.days() * DAY_MS;
        return (eb) => eb(`contacts.${column}`, '<', cutoff);
      }
      const at = values.instant();
      return (eb) => eb(`contacts.${column}`, op === 'is_greater_than' ? '>' : '<', at);
    }
    case 'boolean': {
      const wanted = booleanOf(raw[0], `${path}.values`);
      const stored = (op === 'equal_to') === wanted ? 1 : 0;
      return (eb) => eb('contacts.blocked', '=', stored);
    }
  }
}

/** The compared text of an attribute: a contacts column, or a key of additional_attributes. */
function textOf(eb: EB, spec: AttributeSpec, dialect: DialectName) {
  return spec.kind === 'attribute'
    ? jsonTextField(dialect, 'contacts.additional_attributes', spec.name)
    : eb.ref(`contacts.${spec.name as 'name' | 'email' | 'phone_number' | 'identifier'}`);
}

function textCondition(
  spec: AttributeSpec,
  op: FilterOperator,
  strings: string[],
  options: ContactFilterOptions,
): ContactCondition {
  const like = sql.raw(options.dialect === 'postgres' ? 'ilike' : 'like');
  const negative = op === 'not_equal_to' || op === 'does_not_contain';
  return (eb) => {
    const text = textOf(eb, spec, options.dialect);
    let match: Expression<SqlBool>;
    if (op === 'equal_to' || op === 'not_equal_to') {
      match = eb(
        eb.fn('lower', [text]),
        'in',
        strings.map((s) => s.toLowerCase()),
      );
    } else {
      const pattern = (s: string) => (op === 'starts_with' ? `${escapeLike(s)}%` : `%${escapeLike(s)}%`);
      match = eb.or(strings.map((s) => sql<SqlBool>`${text} ${like} ${pattern(s)} escape '\\'`));
    }
    // A contact without the value matches the negative operators (it is not equal to anything).
    return negative ? eb.or([eb(text, 'is', null), eb.not(match)]) : match;
  };
}

function presence(spec: AttributeSpec, present: boolean, options: ContactFilterOptions): ContactCondition {
  if (spec.kind === 'labels')
    return (eb) => eb('contacts.id', present ? 'in' : 'not in', taggedWith(eb, options.accountId));
  if (spec.kind === 'date') {
    const column = spec.name as 'created_at' | 'last_activity_at';
    return (eb) => eb(`contacts.${column}`, present ? 'is not' : 'is', null);
  }
  return (eb) => {
    const text = textOf(eb, spec, options.dialect);
    const filled = eb.and([eb(text, 'is not', null), eb(text, '!=', '')]);
    return present ? filled : eb.not(filled);
  };
}

function booleanOf(value: unknown, path: string): boolean {
  if (value === true || value === false) return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalidField(path, 'must be true or false');
}

function taggedWith(eb: EB, accountId: number, labels?: string[]) {
  let query = eb
    .selectFrom('taggings')
    .select('taggings.taggable_id')
    .where('taggings.account_id', '=', accountId)
    .where('taggings.taggable_type', '=', 'Contact');
  if (labels) query = query.where('taggings.label', 'in', labels);
  return query;
}
