import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';

/**
 * Automation bodies (`{pipeline_automation: {...}}` or bare). Types are checked here; meaning (a
 * known trigger, conditions, actions and what they name) by the validator, which lists every
 * problem at once: create and update answer 422 with the list `validate` shows.
 */
const Action = Type.Object({ type: Type.String({ maxLength: 64 }) }, { additionalProperties: true });

const Fields = {
  name: Type.String({ maxLength: 255 }),
  description: Nullable(Type.String({ maxLength: 5000 })),
  pipeline_id: Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  trigger: Type.String({ maxLength: 64 }),
  trigger_config: Nullable(JsonObject),
  conditions: Nullable(JsonObject),
  actions: Type.Array(Action, { maxItems: 20 }),
  is_active: Type.Boolean(),
};

export const AutomationCreateBody = Type.Object({
  ...Type.Partial(Type.Object(Fields)).properties,
  name: Fields.name,
  trigger: Fields.trigger,
  actions: Fields.actions,
});
export type AutomationCreateBody = Static<typeof AutomationCreateBody>;

export const AutomationUpdateBody = Type.Partial(Type.Object(Fields));
export type AutomationUpdateBody = Static<typeof AutomationUpdateBody>;

export const CardBody = Type.Object({ card_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) });
export type CardBody = Static<typeof CardBody>;

/** `all_executions`: filters of NooviChat's account-wide execution log (from/to as since/until). */
export const AllExecutionsQuery = Type.Object({
  automation_id: Type.Optional(IdParam),
  status: Type.Optional(Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('skipped')])),
  since: Type.Optional(TimestampInput('Started from')),
  until: Type.Optional(TimestampInput('Started until (included)')),
  from: Type.Optional(TimestampInput('since, as NooviChat names it')),
  to: Type.Optional(TimestampInput('until, as NooviChat names it')),
  page: Type.Optional(PageQuery),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type AllExecutionsQuery = Static<typeof AllExecutionsQuery>;

export const AutomationSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  pipeline_id: Nullable(Type.Integer()),
  trigger: Type.String(),
  trigger_config: JsonObject,
  conditions: JsonObject,
  actions: Type.Array(JsonObject),
  is_active: Type.Boolean(),
  executions_count: Type.Integer(),
  last_executed_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  /** Only in the responses that create an automation (create, duplicate): signs its send_webhook deliveries. */
  webhook_secret: Type.Optional(Type.String()),
});

const Problem = Type.Object({ path: Type.String(), message: Type.String() });

export const ValidationSchema = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Problem),
  warnings: Type.Array(Problem),
});

export const DryRunSchema = Type.Object({
  would_execute: Type.Boolean(),
  conditions: Type.Array(
    Type.Object({ key: Type.String(), expected: Type.Unknown(), actual: Type.Unknown(), result: Type.Boolean() }),
  ),
  actions: Type.Array(Type.Object({ type: Type.String(), params: JsonObject, resolved: JsonObject })),
});

export const ExecutionSchema = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  trigger: Type.String(),
  card_id: Type.Integer(),
  started_at: Type.String(),
  finished_at: Type.String(),
  duration_ms: Type.Integer(),
  actions: Type.Array(Type.Object({ type: Type.String(), status: Type.String(), error: Nullable(Type.String()) })),
  error: Nullable(Type.String()),
});

export const StatsSchema = Type.Object({
  executions_count: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  success_rate: Type.Number(),
  avg_duration_ms: Type.Number(),
  last_executed_at: Nullable(Type.String()),
});

export const DashboardSchema = Type.Object({
  automations_count: Type.Integer(),
  active_count: Type.Integer(),
  executions_today: Type.Integer(),
  success_rate: Type.Number(),
  recent_failures: Type.Array(
    Type.Object({ automation_id: Type.Integer(), name: Type.String(), ...ExecutionSchema.properties }),
  ),
});

export const AuditLogSchema = Type.Object({
  id: Type.Integer(),
  action: Type.String(),
  user: Nullable(Type.Object({ id: Nullable(Type.Integer()), name: Nullable(Type.String()) })),
  changes: JsonObject,
  created_at: Type.String(),
});
