import { invalidField } from '../../../core/http/errors.js';
import { t } from '../../../core/i18n/catalogue.js';

/** The spec's `event_type` values (conversation-service.md, "Lead scoring"). */
export const EVENT_TYPES = [
  'message_received',
  'message_sent',
  'first_response',
  'stage_changed',
  'card_created',
  'card_assigned',
  'label_added',
  'label_removed',
  'conversation_opened',
  'conversation_resolved',
  'conversation_reopened',
  'contact_profile_updated',
  'contact_email_added',
  'contact_phone_added',
  'agent_assigned',
  'agent_replied',
  'custom_event',
] as const;
export type LeadEventType = (typeof EVENT_TYPES)[number];

export const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'is_present', 'is_absent'] as const;
export type Operator = (typeof OPERATORS)[number];

/**
 * The attributes a condition may name: the card's (present on every event) and those the events
 * carry (docs/spec/decisions.md §8). A key outside this list is a 422, so a typo never makes a silent rule.
 */
export const CONDITION_KEYS = [
  // the card
  'pipeline_id',
  'stage_id',
  'value',
  'currency',
  'owner_id',
  'status',
  'contact_id',
  // conversations and messages
  'conversation_id',
  'inbox_id',
  'channel_type',
  'label',
  'labels',
  'message_length',
  'response_minutes',
  'sender_type',
  'assignee_id',
  'previous_status',
  // moves and assignment
  'from_stage_id',
  'to_stage_id',
  'previous_owner_id',
  // contacts
  'changed_attributes',
  'email',
  'phone_number',
  // custom events and the daily job
  'event_subtype',
  'days_in_stage',
  'properties',
] as const;

const KEYS = new Set<string>(CONDITION_KEYS);
const OPS = new Set<string>(OPERATORS);
const TYPES = new Set<string>(EVENT_TYPES);

export const isEventType = (value: string): value is LeadEventType => TYPES.has(value);

/** A condition key: one of the list, or `properties.<name>` (a custom event's property). */
const knownKey = (key: string) => KEYS.has(key) || /^properties\.[A-Za-z0-9_-]{1,64}$/.test(key);

/** Refuses (422, naming the field) an unknown key or operator, or a value an operator cannot use. */
export function validateConditions(conditions: Record<string, unknown>): void {
  for (const [key, condition] of Object.entries(conditions)) {
    const field = `conditions.${key}`;
    if (!knownKey(key))
      throw invalidField(field, t('is not a known condition key (%{keys})', { keys: CONDITION_KEYS.join(', ') }));
    if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) continue;
    const c = condition as Record<string, unknown>;
    if (typeof c.operator !== 'string' || !OPS.has(c.operator))
      throw invalidField(`${field}.operator`, t('must be one of %{values}', { values: OPERATORS.join(', ') }));
    const extra = Object.keys(c).filter((k) => k !== 'operator' && k !== 'value');
    if (extra.length > 0) throw invalidField(`${field}.${extra[0]}`, 'is not allowed (operator and value only)');
    const op = c.operator as Operator;
    if (op === 'in' && !Array.isArray(c.value)) throw invalidField(`${field}.value`, 'must be an array for in');
    if (['gt', 'gte', 'lt', 'lte'].includes(op) && typeof c.value !== 'number')
      throw invalidField(`${field}.value`, t('must be a number for %{operator}', { operator: op }));
    if (op !== 'is_present' && op !== 'is_absent' && c.value === undefined)
      throw invalidField(`${field}.value`, 'is required');
  }
}

function lookup(attributes: Record<string, unknown>, key: string): unknown {
  if (key.startsWith('properties.')) {
    const properties = attributes.properties;
    return properties && typeof properties === 'object'
      ? (properties as Record<string, unknown>)[key.slice(11)]
      : undefined;
  }
  return attributes[key];
}

const same = (a: unknown, b: unknown) =>
  a === b ||
  (typeof a === 'number' && typeof b === 'string' && String(a) === b) ||
  (typeof a === 'string' && typeof b === 'number' && a === String(b));

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function test(actual: unknown, op: Operator, expected: unknown): boolean {
  switch (op) {
    case 'eq':
      return Array.isArray(actual) ? actual.some((a) => same(a, expected)) : same(actual, expected);
    case 'neq':
      return Array.isArray(actual) ? !actual.some((a) => same(a, expected)) : !same(actual, expected);
    case 'gt':
      return typeof actual === 'number' && actual > (expected as number);
    case 'gte':
      return typeof actual === 'number' && actual >= (expected as number);
    case 'lt':
      return typeof actual === 'number' && actual < (expected as number);
    case 'lte':
      return typeof actual === 'number' && actual <= (expected as number);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((a) => same(a, expected));
      return typeof actual === 'string' && actual.toLowerCase().includes(String(expected).toLowerCase());
    case 'in':
      return (
        Array.isArray(expected) &&
        (Array.isArray(actual)
          ? actual.some((a) => expected.some((e) => same(a, e)))
          : expected.some((e) => same(actual, e)))
      );
    case 'is_present':
      return present(actual);
    case 'is_absent':
      return !present(actual);
  }
}

/** Whether every condition holds over the attributes (an empty set always holds). */
export function conditionsMatch(conditions: Record<string, unknown>, attributes: Record<string, unknown>): boolean {
  for (const [key, condition] of Object.entries(conditions)) {
    const actual = lookup(attributes, key);
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      const c = condition as { operator: Operator; value?: unknown };
      if (!test(actual, c.operator, c.value)) return false;
    } else if (!test(actual, 'eq', condition)) return false;
  }
  return true;
}
