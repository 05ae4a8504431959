import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import { invalidField } from '../../../core/http/errors.js';
import type { ChatDatabase, MessageTypeCode } from '../../db/schema.js';
import { compileConversationFilter, type ConversationCondition } from '../conversations/conversations.filter.js';
import { type FilterCriterion } from '../../filters/criteria.js';
import { t, type Text } from '../../../core/i18n/catalogue.js';

/**
 * Rule conditions are conversation filter criteria (conversations.filter.ts: the same whitelisted
 * keys and operators, the same AND/OR chaining, every value bound), plus, in `message_created`
 * rules, two attributes of the message that triggered the rule.
 */
export const MESSAGE_ATTRIBUTES: Record<string, readonly string[]> = {
  content: ['contains', 'does_not_contain', 'equal_to', 'starts_with'],
  message_type: ['equal_to', 'not_equal_to'],
};
const MESSAGE_TYPES: Record<string, MessageTypeCode> = { incoming: 0, outgoing: 1 };

export interface ConditionOptions {
  accountId: number;
  dialect: DialectName;
  eventName: string;
  /** The triggering message (message_created rules at run time); null when only validating. */
  messageId: number | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Validates a rule's conditions (422 naming `conditions.<i>.<part>`) and compiles them to one SQL condition. */
export function compileRuleConditions(
  conditions: readonly FilterCriterion[],
  options: ConditionOptions,
): ConversationCondition {
  return compileConversationFilter(conditions, {
    accountId: options.accountId,
    dialect: options.dialect,
    field: 'conditions',
    extraAttribute: (c, path) => messageAttribute(c, path, options),
  });
}

function messageAttribute(
  c: FilterCriterion,
  path: string,
  options: ConditionOptions,
): ConversationCondition | undefined {
  if (!Object.hasOwn(MESSAGE_ATTRIBUTES, c.attribute_key)) return undefined;
  if (options.eventName !== 'message_created') {
    throw invalidField(
      `${path}.attribute_key`,
      t("'%{key}' is only available in message_created rules", { key: c.attribute_key }),
    );
  }
  const operators = MESSAGE_ATTRIBUTES[c.attribute_key];
  if (!operators.includes(c.filter_operator)) {
    throw invalidField(
      `${path}.filter_operator`,
      t("'%{operator}' is not supported for '%{key}' (use %{operators})", {
        operator: c.filter_operator,
        key: c.attribute_key,
        operators: operators.join(', '),
      }),
    );
  }
  const values = (c.values ?? [])
    .map((v) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : ''))
    .filter((v) => v !== '');
  if (values.length === 0) throw invalidField(`${path}.values`, 'must not be empty');
  const { accountId, dialect } = options;
  const messageId = options.messageId ?? 0;
  type MEB = ExpressionBuilder<ChatDatabase, 'messages'>;
  let match: (eb: MEB) => ReturnType<MEB['or']>;
  let negative = false;
  if (c.attribute_key === 'message_type') {
    const codes = values.map(
      (v) =>
        MESSAGE_TYPES[v.toLowerCase()] ??
        invalidValue(path, t("'%{value}' is not one of incoming, outgoing", { value: v })),
    );
    negative = c.filter_operator === 'not_equal_to';
    match = (eb) => eb.or([eb('messages.message_type', 'in', codes)]);
  } else if (c.filter_operator === 'equal_to') {
    const lowered = values.map((v) => v.toLowerCase());
    match = (eb) => eb.or([eb(eb.fn('lower', [eb.ref('messages.content')]), 'in', lowered)]);
  } else {
    const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
    const pattern = (s: string) => (c.filter_operator === 'starts_with' ? `${escapeLike(s)}%` : `%${escapeLike(s)}%`);
    negative = c.filter_operator === 'does_not_contain';
    match = (eb) =>
      eb.or(values.map((v) => sql<SqlBool>`${eb.ref('messages.content')} ${like} ${pattern(v)} escape '\\'`));
  }
  return (eb) => {
    const hits = eb
      .selectFrom('messages')
      .select('messages.conversation_id')
      .where('messages.account_id', '=', accountId)
      .where('messages.id', '=', messageId)
      .where(match);
    return eb('conversations.id', negative ? 'not in' : 'in', hits);
  };
}

function invalidValue(path: string, message: Text): never {
  throw invalidField(`${path}.values`, message);
}
