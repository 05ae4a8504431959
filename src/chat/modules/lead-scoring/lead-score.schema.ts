import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';

/** A range's ends, and the names NooviChat's clients give them (`from`/`to`, read when since/until are absent). */
const Range = {
  since: Type.Optional(TimestampInput('From')),
  until: Type.Optional(TimestampInput('Until (included)')),
  from: Type.Optional(TimestampInput('since, as NooviChat names it')),
  to: Type.Optional(TimestampInput('until, as NooviChat names it')),
};

export const LogsQuery = Type.Object({
  pipeline_card_id: Type.Optional(IdParam),
  card_id: Type.Optional(Type.Union([IdParam], { description: 'pipeline_card_id, as NooviChat names it' })),
  contact_id: Type.Optional(IdParam),
  rule_id: Type.Optional(IdParam),
  event_type: Type.Optional(Type.String({ maxLength: 64 })),
  category_changes_only: Type.Optional(Type.Boolean()),
  ...Range,
  page: PageQuery,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type LogsQuery = Static<typeof LogsQuery>;

export const LogSchema = Type.Object({
  id: Type.Integer(),
  pipeline_card_id: Type.Integer(),
  contact_id: Nullable(Type.Integer()),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String()),
  event_type: Nullable(Type.String()),
  event_subtype: Nullable(Type.String()),
  points: Type.Integer(),
  old_score: Type.Integer(),
  new_score: Type.Integer(),
  old_category: Type.String(),
  new_category: Type.String(),
  reason: Type.String(),
  created_at: Type.String(),
});

export const CustomEventBody = Type.Object({
  pipeline_card_id: Type.Optional(IdParam),
  contact_id: Type.Optional(IdParam),
  event_subtype: Type.String({ minLength: 1, maxLength: 255 }),
  properties: Type.Optional(JsonObject),
});
export type CustomEventBody = Static<typeof CustomEventBody>;

export const CustomEventResult = Type.Object({
  data: Type.Object({
    event_type: Type.Literal('custom_event'),
    event_subtype: Type.String(),
    pipeline_card_ids: Type.Array(Type.Integer()),
    cards: Type.Array(
      Type.Object({ id: Type.Integer(), lead_score: Type.Integer(), lead_score_category: Type.String() }),
    ),
  }),
});

export const PipelineFilterQuery = Type.Object({ pipeline_id: Type.Optional(IdParam) });

export const DistributionSchema = Type.Object({
  ranges: Type.Array(Type.Object({ range: Type.String(), count: Type.Integer(), label: Type.String() })),
  average_score: Type.Number(),
  median_score: Type.Number(),
  total: Type.Integer(),
});

export const TrendsQuery = Type.Object({
  granularity: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')])),
  ...Range,
  pipeline_id: Type.Optional(IdParam),
});
export type TrendsQuery = Static<typeof TrendsQuery>;

export const RangeQuery = Type.Object(Range);
export type RangeQuery = Static<typeof RangeQuery>;

export const TopLeadsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  pipeline_id: Type.Optional(IdParam),
});
export type TopLeadsQuery = Static<typeof TopLeadsQuery>;

export const BulkJobSchema = Type.Object({
  job_id: Type.Integer(),
  status: Type.String(),
  processed: Type.Integer(),
  total: Type.Integer(),
  error: Nullable(Type.String()),
  created_at: Type.String(),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
});
