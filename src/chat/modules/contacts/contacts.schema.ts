import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, IdParam, JsonObject, Nullable, PageQuery } from '../../../core/http/schemas.js';

export const PhoneNumber = Type.String({
  pattern: '^\\+[1-9][0-9]{1,14}$',
  description: 'E.164, e.g. +5511999990000',
  examples: ['+5511999990000'],
});

/** Custom and additional attributes: a free-form object, bounded in size. */
const Attributes = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 200 });

const ContactFields = {
  name: Type.String({ maxLength: 255 }),
  email: Nullable(Type.String({ format: 'email', maxLength: 255 })),
  phone_number: Nullable(PhoneNumber),
  identifier: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  avatar_url: Nullable(HttpUrl()),
  blocked: Type.Boolean(),
  additional_attributes: Attributes,
  custom_attributes: Attributes,
};

export const ContactCreateBody = Type.Object({
  ...Type.Partial(Type.Object(ContactFields)).properties,
  inbox_id: Type.Optional(IdParam),
  source_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type ContactCreateBody = Static<typeof ContactCreateBody>;

/** Every field optional; `custom_attributes` and `additional_attributes` merge into the stored objects. */
export const ContactUpdateBody = Type.Partial(Type.Object(ContactFields));
export type ContactUpdateBody = Static<typeof ContactUpdateBody>;

export const CONTACT_SORT_KEYS = ['name', 'email', 'phone_number', 'last_activity_at', 'created_at'] as const;
export type ContactSortKey = (typeof CONTACT_SORT_KEYS)[number];
const ContactSort = Type.Union(
  CONTACT_SORT_KEYS.flatMap((k) => [Type.Literal(k), Type.Literal(`-${k}`)]),
  { description: 'Sort key; a leading `-` sorts descending. Default: last activity, newest first.' },
);

const LabelFilter = Type.Array(Type.String({ maxLength: 255 }), {
  maxItems: 100,
  description: 'Only contacts with any of these labels (`labels=a&labels=b` or `labels[]=a`)',
});

export const ContactListQuery = Type.Object({
  page: Type.Optional(PageQuery),
  sort: Type.Optional(ContactSort),
  labels: Type.Optional(LabelFilter),
});
export type ContactListQuery = Static<typeof ContactListQuery>;

export const ContactSearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Matched against name, email, phone number and identifier',
  }),
  page: Type.Optional(PageQuery),
  sort: Type.Optional(ContactSort),
});
export type ContactSearchQuery = Static<typeof ContactSearchQuery>;

export const MAX_LABELS = 100;
export const ContactLabelsBody = Type.Object({
  labels: Type.Array(Type.String({ maxLength: 255 }), {
    maxItems: MAX_LABELS,
    description: 'Replaces all labels of the contact',
  }),
});
export type ContactLabelsBody = Static<typeof ContactLabelsBody>;
export const LabelsResponse = Type.Object({ payload: Type.Array(Type.String()) });

export const ContactInboxCreateBody = Type.Object({
  inbox_id: IdParam,
  source_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type ContactInboxCreateBody = Static<typeof ContactInboxCreateBody>;

export const ContactInboxSchema = Type.Object({
  source_id: Type.String(),
  inbox: Type.Object({ id: Type.Integer(), name: Type.String(), channel_type: Type.String() }),
});

export const ContactSchema = Type.Object({
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
  contact_inboxes: Type.Array(ContactInboxSchema),
});

export const ContactPage = Type.Object({
  meta: Type.Object({ count: Type.Integer(), current_page: Type.Integer() }),
  payload: Type.Array(ContactSchema),
});

/** POST {A}/contacts/filter: the conversation filter's criteria format over contact attributes. */
export const ContactFilterBody = Type.Object({
  payload: Type.Array(
    Type.Object({
      attribute_key: Type.String({ minLength: 1, maxLength: 64 }),
      filter_operator: Type.String({ minLength: 1, maxLength: 64 }),
      values: Type.Optional(
        Type.Array(Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean(), Type.Null()]), {
          maxItems: 100,
        }),
      ),
      query_operator: Type.Optional(Nullable(Type.String({ maxLength: 8 }))),
    }),
    { minItems: 1, maxItems: 50 },
  ),
});
export type ContactFilterBody = Static<typeof ContactFilterBody>;
export const ContactFilterQuery = Type.Object({ page: Type.Optional(PageQuery) });
