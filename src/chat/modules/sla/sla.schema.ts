import { Type, type Static } from '@sinclair/typebox';
import { IdParam, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';

/** Seconds, from one second to ten years. */
const Threshold = Type.Integer({ minimum: 1, maximum: 315_360_000, description: 'seconds' });

export const SlaPolicyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  first_response_time_threshold: Threshold,
  next_response_time_threshold: Type.Optional(Nullable(Threshold)),
  resolution_time_threshold: Type.Optional(Nullable(Threshold)),
  only_during_business_hours: Type.Optional(Type.Boolean()),
});
export type SlaPolicyBody = Static<typeof SlaPolicyBody>;

export const SlaPolicyPatch = Type.Partial(
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Nullable(Type.String({ maxLength: 10_000 })),
    first_response_time_threshold: Threshold,
    next_response_time_threshold: Nullable(Threshold),
    resolution_time_threshold: Nullable(Threshold),
    only_during_business_hours: Type.Boolean(),
  }),
);
export type SlaPolicyPatch = Static<typeof SlaPolicyPatch>;

export const SlaPolicySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  first_response_time_threshold: Type.Integer(),
  next_response_time_threshold: Nullable(Type.Integer()),
  resolution_time_threshold: Nullable(Type.Integer()),
  only_during_business_hours: Type.Boolean(),
  created_at: Type.String({ description: 'ISO 8601' }),
});

const Status = Type.Union([Type.Literal('active'), Type.Literal('hit'), Type.Literal('missed')]);

export const AppliedFilterQuery = {
  sla_policy_id: Type.Optional(IdParam),
  status: Type.Optional(Status),
  since: Type.Optional(TimestampInput('Applied from')),
  until: Type.Optional(TimestampInput('Applied until (included)')),
  inbox_id: Type.Optional(IdParam),
  team_id: Type.Optional(IdParam),
  assigned_agent_id: Type.Optional(IdParam),
};
export const AppliedListQuery = Type.Object({ ...AppliedFilterQuery, page: Type.Optional(PageQuery) });
export type AppliedListQuery = Static<typeof AppliedListQuery>;
export const AppliedMetricsQuery = Type.Object(AppliedFilterQuery);
export type AppliedMetricsQuery = Static<typeof AppliedMetricsQuery>;

export const DownloadQuery = Type.Object({
  ...AppliedFilterQuery,
  start_date: Type.Optional(TimestampInput('First day (YYYY-MM-DD, UTC)')),
  end_date: Type.Optional(TimestampInput('Last day, included (YYYY-MM-DD, UTC)')),
});
export type DownloadQuery = Static<typeof DownloadQuery>;

const Breach = Type.Object({
  id: Type.Integer(),
  event_type: Type.String(),
  due_at: Type.Integer({ description: 'UNIX seconds' }),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
});
const Time = Nullable(Type.Integer({ description: 'UNIX seconds' }));

export const AppliedSlaSchema = Type.Object({
  id: Type.Integer(),
  sla_policy_id: Type.Integer(),
  sla_status: Status,
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  first_response_due_at: Type.Integer(),
  first_response_at: Time,
  next_response_due_at: Time,
  resolution_due_at: Time,
  resolved_at: Time,
  sla_policy: Type.Object({ id: Type.Integer(), name: Type.String() }),
  conversation: Type.Object({
    id: Type.Integer(),
    inbox_id: Type.Integer(),
    status: Type.String(),
    assignee_id: Nullable(Type.Integer()),
    team_id: Nullable(Type.Integer()),
    contact: Type.Object({ id: Type.Integer(), name: Type.String() }),
  }),
  sla_events: Type.Array(Breach),
});

export const AppliedPageSchema = Type.Object({
  payload: Type.Array(AppliedSlaSchema),
  meta: Type.Object({ count: Type.Integer(), current_page: Type.Integer() }),
});

export const MetricsSchema = Type.Object({
  data: Type.Object({
    total_applied: Type.Integer(),
    hit: Type.Integer(),
    missed: Type.Integer(),
    hit_rate: Type.Number({ description: 'percent, 2 decimals' }),
    avg_first_response_time: Type.Number({ description: 'seconds' }),
    avg_resolution_time: Type.Number({ description: 'seconds' }),
    breaches_by_type: Type.Object({
      first_response: Type.Integer(),
      next_response: Type.Integer(),
      resolution: Type.Integer(),
    }),
  }),
});
