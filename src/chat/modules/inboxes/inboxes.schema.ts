import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, JsonObject, Nullable, TimeZone } from '../../../core/http/schemas.js';

/** Channel `type` in requests -> the stored `channel_type` (Chatwoot's class names). */
export const CHANNEL_TYPES = {
  web_widget: 'Channel::WebWidget',
  api: 'Channel::Api',
  email: 'Channel::Email',
  sms: 'Channel::Sms',
  whatsapp: 'Channel::Whatsapp',
  telegram: 'Channel::Telegram',
  facebook: 'Channel::FacebookPage',
  instagram: 'Channel::Instagram',
} as const;
export type ChannelKind = keyof typeof CHANNEL_TYPES;

/** The field each channel needs to be usable. */
export const CHANNEL_REQUIRED_FIELD: Partial<Record<ChannelKind, string>> = {
  web_widget: 'website_url',
  email: 'email',
  sms: 'phone_number',
  whatsapp: 'phone_number',
  telegram: 'bot_token',
  facebook: 'page_id',
  instagram: 'instagram_id',
};

const Channel = Type.Object(
  {
    type: Type.Union(Object.keys(CHANNEL_TYPES).map((k) => Type.Literal(k))),
    website_url: Type.Optional(HttpUrl()),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 255 })),
    phone_number: Type.Optional(Type.String({ pattern: '^\\+?[0-9]{5,20}$', examples: ['+5511999990000'] })),
    webhook_url: Type.Optional(HttpUrl()),
    hmac_mandatory: Type.Optional(
      Type.Boolean({ description: 'As at the top level (where Chatwoot web-widget clients send it)' }),
    ),
  },
  { additionalProperties: true, maxProperties: 50 },
);

const InboxFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  greeting_enabled: Type.Optional(Type.Boolean()),
  greeting_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  enable_auto_assignment: Type.Optional(Type.Boolean()),
  out_of_office_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  working_hours_enabled: Type.Optional(Type.Boolean()),
  timezone: Type.Optional(TimeZone),
  hmac_mandatory: Type.Optional(
    Type.Boolean({ description: 'Refuse public identification (identifier, e-mail) without a valid identifier_hash' }),
  ),
};

export const InboxCreateBody = Type.Object({ ...InboxFields, channel: Channel });
export type InboxCreateBody = Static<typeof InboxCreateBody>;

export const InboxUpdateBody = Type.Partial(Type.Object({ ...InboxFields, channel: Type.Omit(Channel, ['type']) }));
export type InboxUpdateBody = Static<typeof InboxUpdateBody>;

export const InboxSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  channel_id: Type.Integer(),
  name: Type.String(),
  channel_type: Type.String(),
  avatar_url: Type.String(),
  phone_number: Nullable(Type.String()),
  email: Nullable(Type.String()),
  greeting_enabled: Type.Boolean(),
  greeting_message: Nullable(Type.String()),
  enable_auto_assignment: Type.Boolean(),
  out_of_office_message: Nullable(Type.String()),
  working_hours_enabled: Type.Boolean(),
  timezone: Type.String(),
  website_url: Nullable(Type.String()),
  website_token: Nullable(Type.String()),
  inbox_identifier: Nullable(Type.String()),
  webhook_url: Nullable(Type.String()),
  provider: Nullable(Type.String()),
  channel: JsonObject,
  hmac_mandatory: Type.Boolean({ description: 'Public identification needs a valid identifier_hash' }),
  hmac_token: Type.Optional(
    Nullable(
      Type.String({
        description: 'Key of identifier_hash = hex HMAC-SHA256(hmac_token, identifier); administrators only',
      }),
    ),
  ),
  secret: Type.Optional(
    Nullable(
      Type.String({
        description:
          'API inboxes: the key that signs the deliveries to webhook_url (X-Chatwoot-Signature, webhook-signature); administrators only',
      }),
    ),
  ),
  created_at: Type.String(),
});
