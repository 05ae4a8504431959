import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdString } from '../../http/envelope.js';

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 320 });
/** A new password: at least 8 characters (the contract); bounded so hashing stays cheap. */
export const NewPassword = Type.String({ minLength: 8, maxLength: 256 });
const AnyPassword = Type.String({ minLength: 1, maxLength: 256 });
const FullName = Type.String({ minLength: 1, maxLength: 200 });
const CompanyName = Type.String({ minLength: 1, maxLength: 200 });
export const Role = Type.Union([Type.Literal('admin'), Type.Literal('agent')]);

export const SetupBody = Type.Object({
  email: Email,
  password: NewPassword,
  fullName: FullName,
  companyName: Type.Optional(CompanyName),
  setupToken: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});
export type SetupBody = Static<typeof SetupBody>;

export const SetupHeaders = Type.Object({
  'x-setup-token': Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

export const RegisterBody = Type.Object({
  email: Email,
  password: NewPassword,
  fullName: FullName,
  companyName: Type.Optional(CompanyName),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({ email: Email, password: AnyPassword });
export type LoginBody = Static<typeof LoginBody>;

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 200 }) });

export const SwitchAccountBody = Type.Object({
  accountId: Type.Union([IdString, Type.Integer({ minimum: 1, maximum: 2147483647 })], {
    description: 'id of an account the user belongs to (string)',
  }),
});

export const NeedsSetupSchema = Type.Object({ needsSetup: Type.Boolean(), requiresSetupToken: Type.Boolean() });

export const UserSummarySchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  role: Role,
});
export const AccountRefSchema = Type.Object({ id: Type.String(), name: Type.String() });

export const TokenPairSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresIn: Type.Integer({ description: 'seconds until the access token expires' }),
});

/** Login, register, setup and switch-account: a token pair, the user and the account it is for. */
export const SessionSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresIn: Type.Integer(),
  user: UserSummarySchema,
  account: AccountRefSchema,
});

export const ProfileSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  role: Role,
  avatarUrl: Nullable(Type.String()),
  emailVerified: Type.Boolean(),
  isSuperAdmin: Type.Boolean(),
  account: AccountRefSchema,
});

export const MembershipSchema = Type.Object({ id: Type.String(), name: Type.String(), role: Role });

export const AccountsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
});
