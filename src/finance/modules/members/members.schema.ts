import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam } from '../../http/envelope.js';
import { Role } from '../auth/auth.schema.js';

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

export const UpdateMemberBody = Type.Object({ role: Role });

export const MemberParams = Type.Object({ userId: IdPathParam });
