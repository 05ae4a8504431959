import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

export const RoleSchema = Type.Union([Type.Literal('agent'), Type.Literal('administrator')]);

/**
 * Availability in requests. The spec says online | offline | busy; Chatwoot's OpenAPI document
 * spells online as `available`, so that is accepted too and stored as `online`.
 */
const AvailabilityInput = Type.Union([
  Type.Literal('online'),
  Type.Literal('available'),
  Type.Literal('offline'),
  Type.Literal('busy'),
]);
export type AvailabilityInput = Static<typeof AvailabilityInput>;

const Name = Type.String({ minLength: 1, maxLength: 255 });

export const AgentCreateBody = Type.Object({
  name: Name,
  email: Type.String({ format: 'email', maxLength: 255 }),
  role: RoleSchema,
  availability_status: Type.Optional(AvailabilityInput),
  availability: Type.Optional(AvailabilityInput),
  auto_offline: Type.Optional(Type.Boolean()),
});
export type AgentCreateBody = Static<typeof AgentCreateBody>;

/** The spec names the status `availability`; Chatwoot clients send `availability_status`. Both work. */
export const AgentUpdateBody = Type.Object({
  name: Type.Optional(Name),
  role: Type.Optional(RoleSchema),
  availability: Type.Optional(AvailabilityInput),
  availability_status: Type.Optional(AvailabilityInput),
  auto_offline: Type.Optional(Type.Boolean()),
});
export type AgentUpdateBody = Static<typeof AgentUpdateBody>;

/** A user as a member of one account (Chatwoot's agent). Also the shape of team and inbox members. */
export const AgentSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  availability_status: Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('busy')]),
  auto_offline: Type.Boolean(),
  confirmed: Type.Boolean(),
  email: Type.String(),
  provider: Type.String(),
  available_name: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  thumbnail: Type.String(),
  custom_role_id: Nullable(Type.Integer()),
});

/** The answer of `POST {A}/agents`: the agent, and what became of the invitation e-mail. */
export const CreatedAgentSchema = Type.Object({
  ...AgentSchema.properties,
  invitation_email: Type.Union([Type.Literal('queued'), Type.Literal('not_sent_no_smtp'), Type.Literal('not_needed')], {
    description:
      'queued: the invitation e-mail is in the mail queue; not_sent_no_smtp: SMTP_URL is not set, so nobody was e-mailed (set a password with cli.js chat:reset-password); not_needed: the user existed and keeps their password',
  }),
});

/** `user_ids` of the team and inbox member endpoints. */
export const UserIds = (minItems: number) =>
  Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems, maxItems: 1000 });
