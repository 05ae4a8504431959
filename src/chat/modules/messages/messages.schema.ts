import type { StoredFile } from '../../../core/http/multipart.js';
import { AttachmentSchema } from './attachments.schema.js';
import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable } from '../../../core/http/schemas.js';
import type { MessageTypeCode } from '../../db/schema.js';

/** `message_type` is a string in requests and an integer in responses (docs/spec/decisions.md §1). */
export const MESSAGE_TYPE_CODES = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const satisfies Record<
  string,
  MessageTypeCode
>;
export type MessageTypeName = keyof typeof MESSAGE_TYPE_CODES;
export const MESSAGE_TYPE_NAMES: Record<MessageTypeCode, MessageTypeName> = {
  0: 'incoming',
  1: 'outgoing',
  2: 'activity',
  3: 'template',
};

/** Chatwoot's content types (Message#content_type). */
export const CONTENT_TYPES = [
  'text',
  'input_text',
  'input_textarea',
  'input_email',
  'input_select',
  'cards',
  'form',
  'article',
  'incoming_email',
  'input_csat',
  'integrations',
  'sticker',
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export const ContentTypeSchema = Type.Union(CONTENT_TYPES.map((k) => Type.Literal(k)));

export const MAX_MESSAGE_CONTENT = 150_000;
/** Serialized size bound of `content_attributes` (cards and forms carry a few KB at most). */
export const MAX_CONTENT_ATTRIBUTES_CHARS = 100_000;

const Attributes = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 100 });

export const MessageCreateBody = Type.Object({
  content: Type.Optional(Nullable(Type.String({ maxLength: MAX_MESSAGE_CONTENT }))),
  message_type: Type.Optional(
    Type.Union(Object.keys(MESSAGE_TYPE_CODES).map((k) => Type.Literal(k as MessageTypeName))),
  ),
  private: Type.Optional(Type.Boolean()),
  content_type: Type.Optional(ContentTypeSchema),
  content_attributes: Type.Optional(Attributes),
  echo_id: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  source_id: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});
export type MessageCreateBody = Static<typeof MessageCreateBody>;

/** What creating a message needs; `files` (already stored, from a multipart request) may stand in for text. */
export interface MessageInput {
  content?: string | null;
  message_type?: MessageTypeName;
  private?: boolean;
  content_type?: ContentType;
  content_attributes?: Record<string, unknown>;
  echo_id?: string | null;
  source_id?: string | null;
  files?: readonly StoredFile[];
}

/** Delivery states of a message (Chatwoot's Message#status). */
export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** PATCH of a message in an API inbox: its delivery status, as a bridge reports it (Chatwoot). */
export const MessageUpdateBody = Type.Object({
  status: Type.Optional(Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)))),
  external_error: Type.Optional(
    Nullable(Type.String({ maxLength: 1000, description: 'Why delivery failed (kept with status failed only)' })),
  ),
});
export type MessageUpdateBody = Static<typeof MessageUpdateBody>;

export const MessageListQuery = Type.Object({
  before: Type.Optional(IdParam),
  after: Type.Optional(IdParam),
});
export type MessageListQuery = Static<typeof MessageListQuery>;

export const SenderSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Union([Type.Literal('contact'), Type.Literal('user'), Type.Literal('agent_bot')]),
  email: Type.Optional(Nullable(Type.String())),
  phone_number: Type.Optional(Nullable(Type.String())),
  identifier: Type.Optional(Nullable(Type.String())),
  available_name: Type.Optional(Type.String()),
  availability_status: Type.Optional(Type.String()),
  thumbnail: Type.String(),
  avatar_url: Type.Optional(Type.String()),
  blocked: Type.Optional(Type.Boolean()),
  additional_attributes: Type.Optional(JsonObject),
  custom_attributes: Type.Optional(JsonObject),
});

export const MessageSchema = Type.Object({
  id: Type.Integer(),
  content: Nullable(Type.String()),
  account_id: Type.Integer(),
  inbox_id: Type.Integer(),
  conversation_id: Type.Integer({ description: 'The conversation display id' }),
  message_type: Type.Integer({ minimum: 0, maximum: 3, description: '0 incoming, 1 outgoing, 2 activity, 3 template' }),
  content_type: Type.String(),
  content_attributes: JsonObject,
  additional_attributes: JsonObject,
  private: Type.Boolean(),
  status: Type.String(),
  source_id: Nullable(Type.String()),
  echo_id: Nullable(Type.String()),
  created_at: Type.Integer({ description: 'UNIX seconds' }),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
  sender_type: Nullable(Type.String()),
  sender_id: Nullable(Type.Integer()),
  sender: Nullable(SenderSchema),
  attachments: Type.Array(AttachmentSchema),
});
