import { Type, type Static } from '@sinclair/typebox';
import { IdParam, Nullable } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';
import { AgentSchema } from '../agents/agents.schema.js';
import { MAX_MESSAGE_CONTENT } from '../messages/messages.schema.js';

export const CAMPAIGN_TYPES = ['one_off', 'ongoing'] as const;

const AudienceItem = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 50, description: 'Label' }),
  id: Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ minLength: 1, maxLength: 255 })], {
    description: "A label's id in the account's label catalogue ({A}/labels), or the label itself",
  }),
});

export const TriggerRules = Type.Object({
  url: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Page URL pattern the widget matches (`*` wildcards)' }),
  ),
  time_on_page: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 86_400, description: 'Seconds on the page before it triggers' }),
  ),
});
export type TriggerRules = Static<typeof TriggerRules>;

/** Fields every write may carry (PATCH takes them all as optional). */
const EditableFields = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  message: Type.String({
    minLength: 1,
    maxLength: MAX_MESSAGE_CONTENT,
    description:
      'Variables {{contact.name}}, {{contact.email}}, {{contact.phone_number}}, {{agent.name}} are replaced per contact; unknown ones become empty',
  }),
  scheduled_at: Type.Optional(Nullable(TimestampInput('When a one_off campaign is sent'))),
  audience: Type.Optional(Type.Array(AudienceItem, { maxItems: 100 })),
  enabled: Type.Optional(Type.Boolean()),
  sender_id: Type.Optional(IdParam),
  trigger_rules: Type.Optional(TriggerRules),
  trigger_only_during_business_hours: Type.Optional(Type.Boolean()),
};

export const CampaignCreateBody = Type.Object({
  ...EditableFields,
  campaign_type: Type.Union(CAMPAIGN_TYPES.map((t) => Type.Literal(t))),
  inbox_id: IdParam,
});
export type CampaignCreateBody = Static<typeof CampaignCreateBody>;

export const CampaignUpdateBody = Type.Partial(Type.Object(EditableFields));
export type CampaignUpdateBody = Static<typeof CampaignUpdateBody>;

/** Visitors see the sender's name and picture, never their e-mail. */
const PublicSender = Nullable(
  Type.Object({ id: Type.Integer(), name: Type.String(), available_name: Type.String(), thumbnail: Type.String() }),
);

export const CampaignSchema = Type.Object({
  id: Type.Integer({ description: 'The per-account campaign number' }),
  title: Type.String(),
  description: Nullable(Type.String()),
  account_id: Type.Integer(),
  inbox_id: Type.Integer(),
  inbox: Type.Object({ id: Type.Integer(), name: Type.String(), channel_type: Type.String() }),
  sender: Nullable(AgentSchema),
  message: Type.String(),
  campaign_type: Type.String(),
  campaign_status: Type.String({ description: 'active, or completed once a one-off campaign was sent' }),
  enabled: Type.Boolean(),
  scheduled_at: Nullable(Type.String({ description: 'ISO 8601' })),
  audience: Type.Array(
    Type.Object({
      type: Type.String(),
      id: Type.Union([Type.Integer(), Type.String()], {
        description: "The label's catalogue id, or the label itself when the catalogue has none by that name",
      }),
      title: Type.String(),
    }),
  ),
  trigger_rules: TriggerRules,
  trigger_only_during_business_hours: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const CampaignDetailSchema = Type.Object({
  ...CampaignSchema.properties,
  sent: Type.Integer({ description: 'Messages sent' }),
  failed: Type.Integer({ description: 'Contacts the message could not be sent to' }),
  audience_count: Type.Integer({
    description: 'Contacts in the audience: taken when sending started; before that, who carries the labels now',
  }),
});

export const CampaignListSchema = Type.Object({ data: Type.Array(CampaignSchema) });

/** An ongoing campaign as the widget reads it (Chatwoot's widget campaigns). */
export const PublicCampaignSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  message: Type.String(),
  trigger_rules: TriggerRules,
  trigger_only_during_business_hours: Type.Boolean(),
  sender: PublicSender,
});
