import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam } from '../../http/envelope.js';
import { Email, NewPassword, Role } from '../auth/auth.schema.js';

export const MemberSchema = Type.Object({
  id: Type.String({ description: 'user id' }),
  email: Type.String(),
  fullName: Type.String(),
  role: Role,
  avatarUrl: Nullable(Type.String()),
  emailVerified: Type.Boolean(),
  isSuperAdmin: Type.Boolean(),
  joinedAt: Type.String({ description: 'ISO 8601' }),
});

export const MemberListSchema = Type.Object({
  members: Type.Array(MemberSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const AddMemberBody = Type.Object({
  email: Email,
  role: Role,
  fullName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'required when the e-mail is not yet a user' })),
  password: Type.Optional(NewPassword),
});
export type AddMemberBody = Static<typeof AddMemberBody>;

export const UpdateMemberBody = Type.Object({ role: Role });

export const MemberParams = Type.Object({ userId: IdPathParam });
