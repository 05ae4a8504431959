import { TimestampInput } from '../../../core/http/timestamps.js';
import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { AgentSchema } from '../agents/agents.schema.js';
import { ContentTypeSchema, MAX_MESSAGE_CONTENT, MessageSchema } from '../messages/messages.schema.js';

export const STATUSES = ['open', 'resolved', 'pending', 'snoozed'] as const;
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type PriorityName = (typeof PRIORITIES)[number];

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const Priority = literals(PRIORITIES);
/** Custom and additional attributes: a free-form object, bounded in size. */
const Attributes = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 200 });
export const MAX_LABELS = 100;
const Labels = Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_LABELS });

/* Requests */

const ListFilters = {
  status: Type.Optional(literals(['open', 'resolved', 'pending', 'snoozed', 'all'] as const)),
  q: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Matched against message content, the contact name and e-mail, and the conversation number',
    }),
  ),
  inbox_id: Type.Optional(IdParam),
  team_id: Type.Optional(IdParam),
  labels: Type.Optional(
    Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100, description: 'Any of these labels' }),
  ),
};

export const ConversationListQuery = Type.Object({
  ...ListFilters,
  assignee_type: Type.Optional(literals(['me', 'unassigned', 'all', 'assigned'] as const)),
  page: PageQuery,
});
export type ConversationListQuery = Static<typeof ConversationListQuery>;

export const ConversationMetaQuery = Type.Object(ListFilters);
export type ConversationMetaQuery = Static<typeof ConversationMetaQuery>;

export const ConversationCreateBody = Type.Object({
  source_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        "The contact's source id in the inbox; may be left out with contact_id (the contact's, or a new one)",
    }),
  ),
  inbox_id: IdParam,
  contact_id: Type.Optional(IdParam),
  status: Type.Optional(literals(['open', 'pending'] as const)),
  assignee_id: Type.Optional(Nullable(IdParam)),
  team_id: Type.Optional(Nullable(IdParam)),
  message: Type.Optional(
    Type.Object({
      content: Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CONTENT }),
      content_type: Type.Optional(ContentTypeSchema),
    }),
  ),
  additional_attributes: Type.Optional(Attributes),
  custom_attributes: Type.Optional(Attributes),
});
export type ConversationCreateBody = Static<typeof ConversationCreateBody>;

export const ConversationUpdateBody = Type.Object({
  assignee_id: Type.Optional(Nullable(IdParam)),
  team_id: Type.Optional(Nullable(IdParam)),
  status: Type.Optional(literals(['open', 'resolved', 'pending'] as const)),
  priority: Type.Optional(Nullable(Priority)),
  custom_attributes: Type.Optional(Attributes),
  additional_attributes: Type.Optional(Attributes),
  sla_policy_id: Type.Optional(Nullable(IdParam)),
});
export type ConversationUpdateBody = Static<typeof ConversationUpdateBody>;

export const ToggleStatusBody = Type.Object({
  status: Type.Optional(literals(STATUSES)),
  snoozed_until: Type.Optional(Nullable(TimestampInput('Until when a snoozed conversation stays snoozed'))),
});
export type ToggleStatusBody = Static<typeof ToggleStatusBody>;

export const TogglePriorityBody = Type.Object({ priority: Nullable(Priority) });
export type TogglePriorityBody = Static<typeof TogglePriorityBody>;

export const LabelsBody = Type.Object({ labels: Labels });
export type LabelsBody = Static<typeof LabelsBody>;

export const AssignmentBody = Type.Object({
  assignee_id: Type.Optional(Nullable(IdParam)),
  team_id: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        description: 'Ignored when assignee_id is given (Chatwoot); 0 or null removes the team',
      }),
    ),
  ),
});
export type AssignmentBody = Static<typeof AssignmentBody>;

export const CustomAttributesBody = Type.Object({
  custom_attributes: Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), {
    maxProperties: 200,
    description: "Replaces the conversation's custom attributes",
  }),
});
export type CustomAttributesBody = Static<typeof CustomAttributesBody>;

export const FilterBody = Type.Object({
  payload: Type.Array(
    Type.Object({
      attribute_key: Type.String({ minLength: 1, maxLength: 64 }),
      filter_operator: Type.String({ minLength: 1, maxLength: 64 }),
      values: Type.Optional(
        // Booleans for checkbox custom attributes (decisions/0019).
        Type.Array(Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean(), Type.Null()]), {
          maxItems: 100,
        }),
      ),
      query_operator: Type.Optional(Nullable(Type.String({ maxLength: 8 }))),
    }),
    { minItems: 1, maxItems: 50 },
  ),
});
export type FilterBody = Static<typeof FilterBody>;
export const FilterQuery = Type.Object({ page: PageQuery });

/* Responses */

export const ContactSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  identifier: Nullable(Type.String()),
  thumbnail: Type.String(),
  availability_status: Type.String(),
  blocked: Type.Boolean(),
  type: Type.Literal('contact'),
  additional_attributes: JsonObject,
  custom_attributes: JsonObject,
  last_activity_at: Nullable(Type.Integer({ description: 'UNIX seconds' })),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
});

export const TeamSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  allow_auto_assign: Type.Boolean(),
  account_id: Type.Integer(),
});

/** The agent shape (agents.schema.ts), as a conversation shows its assignee. */
export const AssigneeSchema = Type.Object(AgentSchema.properties);

const Unix = Nullable(Type.Integer({ description: 'UNIX seconds' }));

/** The SLA applied to a conversation (Chatwoot's `applied_sla`, with its deadlines); the SLA module fills it. */
export const ConversationAppliedSlaSchema = Type.Object({
  id: Type.Integer(),
  sla_id: Type.Integer({ description: 'The SLA policy' }),
  sla_status: literals(['active', 'hit', 'missed'] as const),
  sla_name: Type.String(),
  sla_description: Nullable(Type.String()),
  sla_first_response_time_threshold: Type.Integer({ description: 'seconds' }),
  sla_next_response_time_threshold: Nullable(Type.Integer({ description: 'seconds' })),
  sla_resolution_time_threshold: Nullable(Type.Integer({ description: 'seconds' })),
  sla_only_during_business_hours: Type.Boolean(),
  first_response_due_at: Unix,
  next_response_due_at: Unix,
  resolution_due_at: Unix,
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
});
export type ConversationAppliedSla = Static<typeof ConversationAppliedSlaSchema>;

/** A breach of the conversation's applied SLA. */
export const ConversationSlaEventSchema = Type.Object({
  id: Type.Integer(),
  event_type: literals(['first_response', 'next_response', 'resolution'] as const),
  due_at: Type.Integer({ description: 'UNIX seconds' }),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
});
export type ConversationSlaEvent = Static<typeof ConversationSlaEventSchema>;

export const ConversationSchema = Type.Object({
  id: Type.Integer({ description: 'The per-account display id' }),
  uuid: Type.String(),
  account_id: Type.Integer(),
  inbox_id: Type.Integer(),
  status: literals(STATUSES),
  priority: Priority,
  contact: Nullable(ContactSummarySchema),
  assignee: Nullable(AssigneeSchema),
  team: Nullable(TeamSummarySchema),
  labels: Type.Array(Type.String()),
  additional_attributes: JsonObject,
  custom_attributes: JsonObject,
  messages: Type.Array(MessageSchema),
  last_non_activity_message: Nullable(MessageSchema),
  contact_inbox: Nullable(Type.Object({ source_id: Type.String() })),
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
  timestamp: Type.Integer({ description: 'UNIX seconds of the last activity' }),
  last_activity_at: Type.Integer({ description: 'UNIX seconds' }),
  unread_count: Type.Integer(),
  snoozed_until: Unix,
  waiting_since: Unix,
  first_reply_created_at: Unix,
  agent_last_seen_at: Unix,
  assignee_last_seen_at: Unix,
  contact_last_seen_at: Nullable(Type.String({ description: 'ISO 8601' })),
  can_reply: Type.Boolean(),
  muted: Type.Boolean(),
  sla_policy_id: Nullable(Type.Integer({ description: 'The SLA policy applied to the conversation; null: none' })),
  applied_sla: Nullable(ConversationAppliedSlaSchema),
  sla_events: Type.Array(ConversationSlaEventSchema, { description: "Breaches of the applied SLA's deadlines" }),
  meta: Type.Object({
    sender: Nullable(ContactSummarySchema),
    assignee: Nullable(AssigneeSchema),
    team: Nullable(TeamSummarySchema),
    channel: Type.String(),
    hmac_verified: Type.Boolean(),
  }),
});

export const CountsSchema = Type.Object({
  mine_count: Type.Integer(),
  unassigned_count: Type.Integer(),
  assigned_count: Type.Integer(),
  all_count: Type.Integer(),
});

export const ConversationPageSchema = Type.Object({ meta: CountsSchema, payload: Type.Array(ConversationSchema) });

export const ToggleStatusResponse = Type.Object({
  meta: Type.Object({}),
  payload: Type.Object({
    success: Type.Boolean(),
    conversation_id: Type.Integer(),
    current_status: literals(STATUSES),
    snoozed_until: Unix,
  }),
});

export const LabelsResponse = Type.Object({ payload: Type.Array(Type.String()) });
