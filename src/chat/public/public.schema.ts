import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable, PageQuery } from '../../core/http/schemas.js';
import { PhoneNumber } from '../modules/contacts/contacts.schema.js';
import { STATUSES } from '../modules/conversations/conversations.schema.js';
import { AttachmentSchema } from '../modules/messages/attachments.schema.js';
import { MAX_MESSAGE_CONTENT, MessageListQuery } from '../modules/messages/messages.schema.js';

/* Path parameters: the inbox identifier and the contact identifier (the contact inbox's source_id). */

const Identifier = Type.String({ minLength: 1, maxLength: 255 });
export const InboxParams = Type.Object({ inbox_identifier: Identifier });
export const ContactParams = Type.Object({ inbox_identifier: Identifier, contact_identifier: Identifier });
export const ConversationParams = Type.Object({ ...ContactParams.properties, conversation_id: IdParam });
export const MessageParams = Type.Object({ ...ConversationParams.properties, message_id: IdParam });

/* Requests */

const Attributes = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 200 });

/** POST and PATCH of a public contact (all optional; custom_attributes merge on PATCH). */
export const PublicContactBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 255 }))),
  phone_number: Type.Optional(Nullable(PhoneNumber)),
  identifier: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  identifier_hash: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 128,
        description:
          "hex HMAC-SHA256 of the identifier (on an update without one, of the contact's) keyed with the inbox's hmac_token",
      }),
    ),
  ),
  custom_attributes: Type.Optional(Attributes),
});
export type PublicContactBody = Static<typeof PublicContactBody>;

export const PublicConversationBody = Type.Object({
  custom_attributes: Type.Optional(Attributes),
});
export type PublicConversationBody = Static<typeof PublicConversationBody>;

export const PublicConversationListQuery = Type.Object({ page: PageQuery });

export const PublicMessageListQuery = MessageListQuery;

export const PublicMessageBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CONTENT }),
  echo_id: Type.Optional(
    Nullable(Type.String({ maxLength: 255, description: 'Local id for de-duplication, returned as sent' })),
  ),
});
export type PublicMessageBody = Static<typeof PublicMessageBody>;

const SubmittedValue = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 50 });

/** PATCH of a message: the contact's answer to an options or form message; no body marks the conversation read. */
export const PublicMessageUpdateBody = Nullable(
  Type.Object({
    submitted_values: Type.Optional(
      Type.Union([Type.Array(SubmittedValue, { maxItems: 100 }), SubmittedValue], {
        description: 'Stored as content_attributes.submitted_values (e.g. [{title, value}] for input_select)',
      }),
    ),
  }),
);
export type PublicMessageUpdateBody = Static<typeof PublicMessageUpdateBody>;

/**
 * Chatwoot's widget events: `webwidget.triggered`, and `campaign.triggered` with
 * `event_info.campaign_id`; both record `webwidget_triggered`.
 */
export const PublicEventBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'webwidget.triggered or campaign.triggered' }),
  event_info: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 50 })),
});
export type PublicEventBody = Static<typeof PublicEventBody>;

/* Responses */

export const PublicContactSchema = Type.Object({
  id: Type.Integer(),
  source_id: Type.String({ description: 'The contact identifier of the paths' }),
  pubsub_token: Type.String({ description: 'Token of the realtime channel' }),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  hmac_verified: Type.Boolean({
    description: 'The contact was identified in this contact inbox with a valid identifier_hash',
  }),
});

export const PublicSenderSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Union([Type.Literal('contact'), Type.Literal('user'), Type.Literal('agent_bot')]),
  available_name: Type.Optional(Type.String()),
  thumbnail: Type.String(),
});

export const PublicMessageSchema = Type.Object({
  id: Type.Integer(),
  content: Nullable(Type.String()),
  message_type: Type.Integer({
    minimum: 0,
    maximum: 3,
    description: '0 incoming (from the contact), 1 outgoing, 3 template',
  }),
  content_type: Type.String(),
  content_attributes: JsonObject,
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  conversation_id: Type.Integer({ description: 'The conversation display id' }),
  echo_id: Nullable(Type.String()),
  sender: Nullable(PublicSenderSchema),
  attachments: Type.Array(AttachmentSchema),
});

export const PublicConversationContactSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
});

export const PublicConversationSchema = Type.Object({
  id: Type.Integer({ description: 'The per-account display id' }),
  uuid: Type.String(),
  inbox_id: Type.Integer(),
  status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
  contact_last_seen_at: Nullable(Type.String({ description: 'ISO 8601' })),
  agent_last_seen_at: Nullable(Type.Integer({ description: 'UNIX seconds' })),
  created_at: Type.String({ description: 'ISO 8601' }),
  messages: Type.Array(PublicMessageSchema, { description: 'In lists, the last message the contact sees' }),
  contact: PublicConversationContactSchema,
});

/**
 * An inbox as the public interface shows it (Chatwoot's public inbox), with its seven days of
 * working hours (Chatwoot's shape); CSAT surveys are not offered.
 */
export const PublicInboxSchema = Type.Object({
  identifier: Type.String(),
  name: Type.String(),
  timezone: Type.String(),
  working_hours: Type.Array(Type.Object({}, { additionalProperties: true })),
  working_hours_enabled: Type.Boolean(),
  csat_survey_enabled: Type.Boolean(),
  greeting_enabled: Type.Boolean(),
  greeting_message: Nullable(Type.String()),
  out_of_office_message: Nullable(Type.String()),
  identity_validation_enabled: Type.Boolean(),
});
