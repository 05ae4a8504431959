import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PageQuery } from '../../../core/http/schemas.js';
import { FilterBody } from '../conversations/conversations.schema.js';

/** The events a rule may run on (Chatwoot's three, plus conversation_opened / conversation_resolved). */
export const RULE_EVENTS = [
  'conversation_created',
  'conversation_updated',
  'message_created',
  'conversation_opened',
  'conversation_resolved',
] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];

export const ACTION_NAMES = [
  'assign_agent',
  'assign_team',
  'add_label',
  'remove_label',
  'send_email',
  'mute_conversation',
  'change_status',
  'change_priority',
  // The SLA module (docs/spec/decisions.md §10): applies the policy {sla_policy_id}.
  'add_sla',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 20;

/** A condition has the shape of a conversation filter criterion (the same compiler checks both). */
const Condition = FilterBody.properties.payload.items;

// Names and params are checked by the service, so that a 422 names the bad action and says why.
const Action = Type.Object({
  action_name: Type.String({ minLength: 1, maxLength: 64 }),
  action_params: Type.Optional(
    Nullable(
      Type.Array(Type.Union([Type.String({ maxLength: 320 }), Type.Integer({ minimum: 0, maximum: 2147483647 })]), {
        maxItems: 100,
      }),
    ),
  ),
});

const Conditions = Type.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS });
const Actions = Type.Array(Action, { minItems: 1, maxItems: MAX_ACTIONS });

export const RuleCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  event_name: Type.String({ minLength: 1, maxLength: 64 }),
  conditions: Conditions,
  actions: Actions,
  active: Type.Optional(Type.Boolean()),
});
export type RuleCreateBody = Static<typeof RuleCreateBody>;

export const RuleUpdateBody = Type.Partial(RuleCreateBody);
export type RuleUpdateBody = Static<typeof RuleUpdateBody>;

export type RuleCondition = Static<typeof Condition>;
export type RuleAction = Static<typeof Action>;

export const RunsQuery = Type.Object({ page: Type.Optional(PageQuery) });

/* Responses */

export const RuleSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  event_name: Type.String(),
  conditions: Type.Array(
    Type.Object({
      attribute_key: Type.String(),
      filter_operator: Type.String(),
      values: Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
      query_operator: Nullable(Type.String()),
    }),
  ),
  actions: Type.Array(
    Type.Object({ action_name: Type.String(), action_params: Type.Array(Type.Union([Type.String(), Type.Integer()])) }),
  ),
  active: Type.Boolean(),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  /** Chatwoot's name for created_at. */
  created_on: Type.Integer({ description: 'UNIX seconds' }),
});

export const RunSchema = Type.Object({
  id: Type.Integer(),
  rule_id: Type.Integer(),
  event_name: Type.String({ description: 'The event that triggered the run' }),
  event_id: Nullable(Type.Integer()),
  conversation_id: Nullable(Type.Integer({ description: 'The conversation display id' })),
  outcome: Type.Union([Type.Literal('applied'), Type.Literal('skipped'), Type.Literal('failed')]),
  actions_applied: Type.Array(Type.String()),
  error: Nullable(Type.String()),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
});
