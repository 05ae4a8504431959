import { Type, type Static } from '@sinclair/typebox';
import { invalidField } from '../../../core/http/errors.js';
import { HttpUrl, JsonObject, Nullable, TimeZone } from '../../../core/http/schemas.js';
import type { Text } from '../../../core/i18n/catalogue.js';

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

/** One day of an inbox's working hours (Chatwoot's shape); day_of_week 0 is Sunday, times in the inbox's time zone. */
export const WorkingHour = Type.Object({
  day_of_week: Type.Integer({ minimum: 0, maximum: 6 }),
  closed_all_day: Type.Optional(Type.Boolean()),
  open_all_day: Type.Optional(Type.Boolean()),
  open_hour: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 23 }))),
  open_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 59 }))),
  close_hour: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 24 }))),
  close_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 59 }))),
});
export type WorkingHour = Static<typeof WorkingHour>;
export interface WorkingDay {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
}

/** Chatwoot's default: Monday to Friday 09:00-17:00, closed at weekends. */
export const DEFAULT_WORKING_HOURS: readonly WorkingDay[] = [0, 1, 2, 3, 4, 5, 6].map((day) => {
  const closed = day === 0 || day === 6;
  return {
    day_of_week: day,
    closed_all_day: closed,
    open_all_day: false,
    open_hour: closed ? null : 9,
    open_minutes: closed ? null : 0,
    close_hour: closed ? null : 17,
    close_minutes: closed ? null : 0,
  };
});

/** The stored working hours (inboxes.working_hours, JSON), the default when never set. */
export function parseWorkingHours(text: string | null | undefined): WorkingDay[] {
  if (!text) return DEFAULT_WORKING_HOURS.map((d) => ({ ...d }));
  try {
    const parsed = JSON.parse(text) as WorkingDay[];
    return Array.isArray(parsed) ? parsed : DEFAULT_WORKING_HOURS.map((d) => ({ ...d }));
  } catch {
    return DEFAULT_WORKING_HOURS.map((d) => ({ ...d }));
  }
}

/**
 * Checks a working_hours list (422 naming `working_hours.<i>...`) and returns all seven days in
 * order: days not given keep their current value; an open day needs open and close times, close
 * after open.
 */
export function normalizeWorkingHours(entries: readonly WorkingHour[], current: readonly WorkingDay[]): WorkingDay[] {
  const days = new Map(current.map((d) => [d.day_of_week, { ...d }]));
  const seen = new Set<number>();
  const fail = (field: string, message: Text): never => {
    throw invalidField(field, message);
  };
  entries.forEach((e, i) => {
    if (seen.has(e.day_of_week)) fail(`working_hours.${i}.day_of_week`, 'appears twice');
    seen.add(e.day_of_week);
    const closed = e.closed_all_day === true;
    const allDay = !closed && e.open_all_day === true;
    const day: WorkingDay = {
      day_of_week: e.day_of_week,
      closed_all_day: closed,
      open_all_day: allDay,
      open_hour: null,
      open_minutes: null,
      close_hour: null,
      close_minutes: null,
    };
    if (!closed && !allDay) {
      if (e.open_hour == null) fail(`working_hours.${i}.open_hour`, 'is required for an open day');
      if (e.close_hour == null) fail(`working_hours.${i}.close_hour`, 'is required for an open day');
      day.open_hour = e.open_hour!;
      day.open_minutes = e.open_minutes ?? 0;
      day.close_hour = e.close_hour!;
      day.close_minutes = e.close_hour === 24 ? 0 : (e.close_minutes ?? 0);
      if (day.close_hour * 60 + day.close_minutes <= day.open_hour * 60 + day.open_minutes)
        fail(`working_hours.${i}.close_hour`, 'must be after the opening time');
    }
    days.set(e.day_of_week, day);
  });
  return [0, 1, 2, 3, 4, 5, 6].map((d) => days.get(d) ?? { ...DEFAULT_WORKING_HOURS[d]! });
}

const InboxFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  greeting_enabled: Type.Optional(Type.Boolean()),
  greeting_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  enable_auto_assignment: Type.Optional(Type.Boolean()),
  out_of_office_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  working_hours_enabled: Type.Optional(Type.Boolean()),
  timezone: Type.Optional(TimeZone),
  working_hours: Type.Optional(Type.Array(WorkingHour, { maxItems: 7 })),
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
  working_hours: Type.Array(
    Type.Object({
      day_of_week: Type.Integer(),
      closed_all_day: Type.Boolean(),
      open_all_day: Type.Boolean(),
      open_hour: Nullable(Type.Integer()),
      open_minutes: Nullable(Type.Integer()),
      close_hour: Nullable(Type.Integer()),
      close_minutes: Nullable(Type.Integer()),
    }),
  ),
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
