import { Type, type Static } from '@sinclair/typebox';
import { JsonObject, Nullable } from '../../core/http/schemas.js';

export const Locale = Type.String({
  pattern: '^[a-z]{2}(_[A-Z]{2})?$',
  maxLength: 5,
  description: 'pt_BR, en, es, ...',
  examples: ['pt_BR'],
});
const Email = Type.String({ format: 'email', maxLength: 255 });
const Name = Type.String({ minLength: 1, maxLength: 255 });

export const AccountBody = Type.Object({
  name: Name,
  locale: Type.Optional(Locale),
  domain: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  support_email: Type.Optional(Nullable(Email)),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  auto_resolve_duration: Type.Optional(Nullable(Type.Integer({ minimum: 10, maximum: 1439856 }))),
  custom_attributes: Type.Optional(JsonObject),
  plan: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  features: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
});
export type AccountBody = Static<typeof AccountBody>;

export const AccountPatch = Type.Partial(AccountBody);
export type AccountPatch = Static<typeof AccountPatch>;

export const PlatformAccount = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  locale: Type.String(),
  domain: Nullable(Type.String()),
  support_email: Nullable(Type.String()),
  status: Type.String(),
  auto_resolve_duration: Nullable(Type.Integer()),
  custom_attributes: JsonObject,
  plan: Nullable(Type.String()),
  features: Type.Record(Type.String(), Type.Boolean()),
  created_at: Type.String(),
});

export const UserBody = Type.Object({
  name: Name,
  email: Email,
  password: Type.String({ minLength: 6, maxLength: 128 }),
  display_name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  custom_attributes: Type.Optional(JsonObject),
});
export type UserBody = Static<typeof UserBody>;

export const UserPatch = Type.Partial(UserBody);
export type UserPatch = Static<typeof UserPatch>;

export const PlatformUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  display_name: Nullable(Type.String()),
  email: Type.String(),
  created_at: Type.String(),
  custom_attributes: JsonObject,
  access_token: Type.String(),
  pubsub_token: Type.String(),
  confirmed: Type.Boolean(),
  accounts: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), role: Type.String() })),
});

export const AccountUserBody = Type.Object({
  user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  role: Type.Union([Type.Literal('administrator'), Type.Literal('agent')]),
});

export const AccountUserDeleteBody = Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const PlatformAccountUser = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  user_id: Type.Integer(),
  role: Type.String(),
});
