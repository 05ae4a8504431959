import { Type, type Static } from '@sinclair/typebox';
import { IdParam, PageQuery } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const REPORT_METRICS = [
  'conversations_count',
  'incoming_messages_count',
  'outgoing_messages_count',
  'avg_first_response_time',
  'avg_resolution_time',
  'resolutions_count',
] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];
export const REPORT_TYPES = ['account', 'agent', 'inbox', 'team', 'label'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Optional in the schema so that the service can name every missing one (422); UNIX seconds or ISO 8601. */
const Range = {
  since: Type.Optional(TimestampInput('Start (included)')),
  until: Type.Optional(TimestampInput('End (included: the whole second, or day, it names)')),
};

export const SummaryQuery = Type.Object({
  type: literals(REPORT_TYPES),
  id: Type.Optional(IdParam),
  ...Range,
});
export type SummaryQuery = Static<typeof SummaryQuery>;

export const SeriesQuery = Type.Object({
  metric: literals(REPORT_METRICS),
  type: literals(REPORT_TYPES),
  id: Type.Optional(IdParam),
  group_by: Type.Optional(literals(['day', 'week', 'month'] as const)),
  timezone_offset: Type.Optional(Type.Number({ minimum: -14, maximum: 14, description: 'hours from UTC' })),
  ...Range,
});
export type SeriesQuery = Static<typeof SeriesQuery>;

export const ConversationsReportQuery = Type.Object({
  type: literals(REPORT_TYPES),
  id: Type.Optional(IdParam),
  user_id: Type.Optional(IdParam),
  ...Range,
});
export type ConversationsReportQuery = Static<typeof ConversationsReportQuery>;

export const ChannelQuery = Type.Object({ ...Range, business_hours: Type.Optional(Type.Boolean()) });
export type ChannelQuery = Static<typeof ChannelQuery>;

export const EventsQuery = Type.Object({
  page: Type.Optional(PageQuery),
  name: Type.Optional(
    literals([
      'conversation_created',
      'conversation_opened',
      'conversation_resolved',
      'first_response',
      'reply_time',
      'incoming_message',
      'outgoing_message',
    ] as const),
  ),
  inbox_id: Type.Optional(IdParam),
  user_id: Type.Optional(IdParam),
  ...Range,
});
export type EventsQuery = Static<typeof EventsQuery>;

const Figures = {
  conversations_count: Type.Integer(),
  incoming_messages_count: Type.Integer(),
  outgoing_messages_count: Type.Integer(),
  avg_first_response_time: Type.Number({ description: 'seconds' }),
  avg_resolution_time: Type.Number({ description: 'seconds' }),
  resolutions_count: Type.Integer(),
};
export const SummarySchema = Type.Object({ ...Figures, previous: Type.Object(Figures) });

export const SeriesSchema = Type.Array(
  Type.Object({
    value: Type.Number({ description: 'the count, or the average in seconds' }),
    timestamp: Type.Integer({ description: "the bucket's start, UNIX seconds" }),
    count: Type.Integer({ description: 'events in the bucket' }),
  }),
);

const Queue = Type.Object({
  open: Type.Integer(),
  unattended: Type.Integer(),
  unassigned: Type.Integer(),
  pending: Type.Integer(),
});
export const ConversationsReportSchema = Type.Union([
  Queue,
  Type.Array(
    Type.Object(
      {
        id: Type.Integer(),
        name: Type.String(),
        metric: Type.Object({}, { additionalProperties: Type.Integer() }),
      },
      { additionalProperties: true },
    ),
  ),
]);

export const ChannelSchema = Type.Record(
  Type.String(),
  Type.Object({
    open: Type.Integer(),
    resolved: Type.Integer(),
    pending: Type.Integer(),
    snoozed: Type.Integer(),
    total: Type.Integer(),
  }),
);

export const ReportingEventSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  value: Type.Union([Type.Number(), Type.Null()], { description: 'seconds (null for counted events)' }),
  value_in_business_hours: Type.Union([Type.Number(), Type.Null()], {
    description:
      "seconds within the inbox's working hours in its time zone; equal to value when the inbox does not use working hours",
  }),
  event_start_time: Type.String(),
  event_end_time: Type.String(),
  account_id: Type.Integer(),
  conversation_id: Type.Union([Type.Integer(), Type.Null()]),
  inbox_id: Type.Union([Type.Integer(), Type.Null()]),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  team_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export const EventsPageSchema = Type.Object({
  meta: Type.Object({ count: Type.Integer(), current_page: Type.Integer(), total_pages: Type.Integer() }),
  payload: Type.Array(ReportingEventSchema),
});
