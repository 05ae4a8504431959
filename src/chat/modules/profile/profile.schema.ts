import { Type } from '@sinclair/typebox';
import { JsonObject, Nullable } from '../../../core/http/schemas.js';

export const Profile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  display_name: Nullable(Type.String()),
  available_name: Type.String(),
  email: Type.String(),
  uid: Type.String(),
  provider: Type.String(),
  avatar_url: Type.String(),
  type: Type.String(),
  confirmed: Type.Boolean(),
  custom_attributes: JsonObject,
  access_token: Type.String(),
  pubsub_token: Type.String(),
  account_id: Nullable(Type.Integer()),
  role: Nullable(Type.String()),
  accounts: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      locale: Type.String(),
      status: Type.String(),
      role: Type.String(),
      availability: Type.String(),
      availability_status: Type.String(),
      auto_offline: Type.Boolean(),
    }),
  ),
});

export const SignInBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 255 }),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  sso_auth_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
