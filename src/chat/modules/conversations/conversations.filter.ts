import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import { invalidField } from '../../../core/http/errors.js';
import type { ChatDatabase, ConversationsTable } from '../../db/schema.js';
import { PRIORITIES, STATUSES } from './conversations.schema.js';
import { t } from '../../../core/i18n/catalogue.js';
import {
  chainCriteria,
  escapeLike,
  FILTER_OPERATORS,
  ValueReader,
  type FilterCriterion,
  type FilterOperator,
} from '../../filters/criteria.js';

/**
 * Conversation filter criteria -> a SQL condition on `conversations` (POST {A}/conversations/filter,
 * custom filters, automation rule conditions). Attribute keys and operators are whitelisted; every
 * value is a bound parameter. Items chain with `query_operator` (AND | OR, on every item but the
 * last) with SQL precedence: `a AND b OR c` is `(a AND b) OR c`.
 */

export interface FilterOptions {
  accountId: number;
  dialect: DialectName;
  /** Reference time for `days_before` (epoch ms); defaults to now. */
  now?: number;
  /** Name of the criteria array in error details (`payload` for the filter endpoint). */
  field?: string;
  /**
   * Attributes beyond the whitelist (automation rules' message attributes): the condition for a
   * criterion whose key it knows (it answers 422 naming `<path>.<part>` itself), else undefined.
   */
  extraAttribute?: (criterion: FilterCriterion, path: string) => ConversationCondition | undefined;
}

type EB = ExpressionBuilder<ChatDatabase, 'conversations'>;
export type ConversationCondition = (eb: EB) => Expression<SqlBool>;
type Column = `conversations.${keyof ConversationsTable & string}`;

type Kind = 'enum' | 'id' | 'date' | 'labels' | 'contact_text';
interface AttributeSpec {
  kind: Kind;
  column?: Column;
  contactColumn?: 'name' | 'email' | 'phone_number';
  values?: readonly string[];
}

export const FILTER_ATTRIBUTES: Record<string, AttributeSpec> = {
  status: { kind: 'enum', column: 'conversations.status', values: STATUSES },
  priority: { kind: 'enum', column: 'conversations.priority', values: PRIORITIES },
  assignee_id: { kind: 'id', column: 'conversations.assignee_id' },
  team_id: { kind: 'id', column: 'conversations.team_id' },
  inbox_id: { kind: 'id', column: 'conversations.inbox_id' },
  contact_id: { kind: 'id', column: 'conversations.contact_id' },
  display_id: { kind: 'id', column: 'conversations.display_id' },
  created_at: { kind: 'date', column: 'conversations.created_at' },
  last_activity_at: { kind: 'date', column: 'conversations.last_activity_at' },
  labels: { kind: 'labels' },
  contact_name: { kind: 'contact_text', contactColumn: 'name' },
  contact_email: { kind: 'contact_text', contactColumn: 'email' },
  contact_phone_number: { kind: 'contact_text', contactColumn: 'phone_number' },
};

const PRESENCE: FilterOperator[] = ['is_present', 'is_not_present'];
const OPERATORS_OF: Record<Kind, FilterOperator[]> = {
  enum: ['equal_to', 'not_equal_to', ...PRESENCE],
  id: ['equal_to', 'not_equal_to', 'is_greater_than', 'is_less_than', ...PRESENCE],
  date: ['is_greater_than', 'is_less_than', 'days_before', ...PRESENCE],
  labels: ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', ...PRESENCE],
  contact_text: ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', 'starts_with', ...PRESENCE],
};

const NEVER = sql<SqlBool>`1 = 0`;
const DAY_MS = 86_400_000;

/** Validates every criterion (422 naming the bad key, operator or value) and returns the condition. */
export function compileConversationFilter(
  criteria: readonly FilterCriterion[],
  options: FilterOptions,
): ConversationCondition {
  return chainCriteria(criteria, options.field ?? 'payload', (c, path) => compileOne(c, path, options));
}

function compileOne(c: FilterCriterion, path: string, options: FilterOptions): ConversationCondition {
  const spec = Object.hasOwn(FILTER_ATTRIBUTES, c.attribute_key) ? FILTER_ATTRIBUTES[c.attribute_key] : undefined;
  const extra = spec ? undefined : options.extraAttribute?.(c, path);
  if (extra) return extra;
  if (!spec)
    throw invalidField(`${path}.attribute_key`, t("'%{key}' is not a supported attribute", { key: c.attribute_key }));
  const op = c.filter_operator as FilterOperator;
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not a supported operator", { operator: c.filter_operator }),
    );
  }
  if (!OPERATORS_OF[spec.kind].includes(op)) {
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not supported for '%{key}'", { operator: op, key: c.attribute_key }),
    );
  }
  const raw = (c.values ?? []).filter((v) => v !== null && v !== '');
  const values = new ValueReader(raw, `${path}.values`);
  if (op === 'is_present' || op === 'is_not_present') return presence(spec, op === 'is_present', options.accountId);
  if (raw.length === 0) throw invalidField(`${path}.values`, 'must not be empty');

  switch (spec.kind) {
    case 'enum': {
      const wanted = values.enums(spec.values!);
      const nonNull = wanted.filter((v) => v !== 'none');
      const withNull = wanted.includes('none');
      return (eb) =>
        op === 'equal_to' ? inSet(eb, spec.column!, nonNull, withNull) : notInSet(eb, spec.column!, nonNull, withNull);
    }
    case 'id': {
      const col = spec.column!;
      if (op === 'is_greater_than' || op === 'is_less_than') {
        const n = values.ids()[0];
        return (eb) => eb(col, op === 'is_greater_than' ? '>' : '<', n);
      }
      const ids = values.ids();
      return (eb) => (op === 'equal_to' ? inSet(eb, col, ids, false) : notInSet(eb, col, ids, false));
    }
    case 'date': {
      const col = spec.column!;
      if (op === 'days_before') {
        const cutoff = (options.now ?? Date.now()) - values.days() * DAY_MS;
        return (eb) => eb(col, '<', cutoff);
      }
      const at = values.instant();
      return (eb) => eb(col, op === 'is_greater_than' ? '>' : '<', at);
    }
    case 'labels': {
      const labels = values.strings().map((l) => l.toLowerCase());
      const positive = op === 'equal_to' || op === 'contains';
      return (eb) => {
        const tagged = taggedWith(eb, options.accountId, labels);
        return positive ? eb('conversations.id', 'in', tagged) : eb('conversations.id', 'not in', tagged);
      };
    }
    case 'contact_text': {
      const column = spec.contactColumn!;
      const strings = values.strings();
      const like = sql.raw(options.dialect === 'postgres' ? 'ilike' : 'like');
      const negative = op === 'not_equal_to' || op === 'does_not_contain';
      const match = (ceb: ExpressionBuilder<ChatDatabase, 'contacts'>) => {
        if (op === 'equal_to' || op === 'not_equal_to') {
          return ceb(
            ceb.fn('lower', [ceb.ref(`contacts.${column}`)]),
            'in',
            strings.map((s) => s.toLowerCase()),
          );
        }
        const pattern = (s: string) => (op === 'starts_with' ? `${escapeLike(s)}%` : `%${escapeLike(s)}%`);
        return ceb.or(
          strings.map((s) => sql<SqlBool>`${ceb.ref(`contacts.${column}`)} ${like} ${pattern(s)} escape '\\'`),
        );
      };
      return (eb) => {
        const ids = eb
          .selectFrom('contacts')
          .select('contacts.id')
          .where('contacts.account_id', '=', options.accountId)
          .where(match);
        return eb('conversations.contact_id', negative ? 'not in' : 'in', ids);
      };
    }
  }
}

function presence(spec: AttributeSpec, present: boolean, accountId: number): ConversationCondition {
  if (spec.kind === 'labels') {
    return (eb) => eb('conversations.id', present ? 'in' : 'not in', taggedWith(eb, accountId));
  }
  if (spec.kind === 'contact_text') {
    const column = spec.contactColumn!;
    return (eb) => {
      const ids = eb
        .selectFrom('contacts')
        .select('contacts.id')
        .where('contacts.account_id', '=', accountId)
        .where(`contacts.${column}`, 'is not', null)
        .where(`contacts.${column}`, '!=', '');
      return eb('conversations.contact_id', present ? 'in' : 'not in', ids);
    };
  }
  const col = spec.column!;
  return (eb) => eb(col, present ? 'is not' : 'is', null);
}

function taggedWith(eb: EB, accountId: number, labels?: string[]) {
  let query = eb
    .selectFrom('taggings')
    .select('taggings.taggable_id')
    .where('taggings.account_id', '=', accountId)
    .where('taggings.taggable_type', '=', 'Conversation');
  if (labels) query = query.where('taggings.label', 'in', labels);
  return query;
}

/** `col` is one of `values`, where `withNull` counts NULL as a value. */
function inSet(eb: EB, col: Column, values: (string | number)[], withNull: boolean): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (values.length > 0) parts.push(eb(col, 'in', values));
  if (withNull) parts.push(eb(col, 'is', null));
  return parts.length > 0 ? eb.or(parts) : NEVER;
}

/** The negation of inSet that stays true (not NULL) for NULL columns. */
function notInSet(eb: EB, col: Column, values: (string | number)[], withNull: boolean): Expression<SqlBool> {
  const notIn = values.length > 0 ? [eb(col, 'not in', values)] : [];
  if (withNull) return eb.and([eb(col, 'is not', null), ...notIn]);
  return notIn.length > 0 ? eb.or([eb(col, 'is', null), ...notIn]) : eb(col, 'is', null);
}

/**
 * The same set as plain list filters, when the criteria are only `equal_to` one value of status,
 * inbox or team, joined by AND (the common "open conversations of this inbox" filter): then the
 * list's counts come from the trigger-kept buckets instead of counting. Undefined otherwise.
 * Call after `compileConversationFilter` accepted the criteria.
 */
export function asListFilter(
  criteria: readonly FilterCriterion[],
): { status?: (typeof STATUSES)[number]; inboxId?: number; teamId?: number } | undefined {
  const out: { status?: (typeof STATUSES)[number]; inboxId?: number; teamId?: number } = {};
  for (const [i, c] of criteria.entries()) {
    const last = i === criteria.length - 1;
    if (!last && (c.query_operator ?? 'and').toString().toLowerCase() !== 'and') return undefined;
    if (c.filter_operator !== 'equal_to' || c.values?.length !== 1) return undefined;
    const value = c.values[0];
    if (c.attribute_key === 'status' && out.status === undefined && STATUSES.includes(value as never)) {
      out.status = value as (typeof STATUSES)[number];
    } else if (
      (c.attribute_key === 'inbox_id' || c.attribute_key === 'team_id') &&
      /^[1-9]\d{0,15}$/.test(String(value))
    ) {
      const key = c.attribute_key === 'inbox_id' ? 'inboxId' : 'teamId';
      if (out[key] !== undefined) return undefined;
      out[key] = Number(value);
    } else {
      return undefined;
    }
  }
  return criteria.length > 0 ? out : undefined;
}
