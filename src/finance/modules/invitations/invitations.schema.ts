import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { AccountRefSchema, Email, NewPassword, Role } from '../auth/auth.schema.js';

export const InvitationStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('accepted'),
  Type.Literal('revoked'),
  Type.Literal('expired'),
]);
export type InvitationStatusName = Static<typeof InvitationStatusSchema>;

export const InvitationSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  status: InvitationStatusSchema,
  expiresAt: Type.String({ description: 'ISO 8601' }),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({
    description: 'ISO 8601; changes when the invitation is renewed, resent, accepted or revoked',
  }),
  acceptedAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
  invitedBy: Type.Union(
    [Type.Object({ id: Type.String(), email: Type.String(), fullName: Type.String() }), Type.Null()],
    {
      description: 'the administrator who sent or last renewed it (null once that user no longer exists)',
    },
  ),
});

export const InvitationListSchema = Type.Object({
  invitations: Type.Array(InvitationSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const InvitationListQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  status: Type.Optional(InvitationStatusSchema),
});
export type InvitationListQuery = Static<typeof InvitationListQuery>;

/**
 * `POST /api/accounts/members`. `password` is named only to refuse it with a clear 422 (earlier
 * clients sent one); other fields, `fullName` included, are dropped unread.
 */
export const InviteBody = Type.Object({
  email: Email,
  role: Role,
  password: Type.Optional(
    Type.Unknown({
      deprecated: true,
      description: 'no longer accepted (422 password_not_allowed): the invitee chooses their own password',
    }),
  ),
});
export type InviteBody = Static<typeof InviteBody>;

export const InvitationParams = Type.Object({ id: IdPathParam });

const Token = Type.String({ minLength: 1, maxLength: 200, description: 'the token of the e-mailed link' });

export const InvitationTokenParams = Type.Object({ token: Token });

export const AcceptInvitationBody = Type.Object({
  token: Token,
  password: Type.Optional(NewPassword),
  fullName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

/** What the accept page shows to whoever holds the link. */
export const InvitationPreviewSchema = Type.Object({
  account: AccountRefSchema,
  email: Type.String(),
  role: Role,
  expiresAt: Type.String({ description: 'ISO 8601' }),
  invitedBy: Nullable(Type.Object({ fullName: Type.String() })),
  passwordRequired: Type.Boolean({
    description:
      'true: the address has no user yet, so accepting needs `password` (8+) and `fullName`; false: sign in as that user and accept with the access token',
  }),
});
