import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { UserIds } from '../agents/agents.schema.js';

const TeamFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  allow_auto_assign: Type.Optional(Type.Boolean()),
};

export const TeamCreateBody = Type.Object(TeamFields);
export type TeamCreateBody = Static<typeof TeamCreateBody>;

export const TeamUpdateBody = Type.Partial(Type.Object(TeamFields));
export type TeamUpdateBody = Static<typeof TeamUpdateBody>;

export const TeamSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  allow_auto_assign: Type.Boolean(),
  account_id: Type.Integer(),
  is_member: Type.Boolean({ description: 'Whether the calling user is a member of the team' }),
});

/** POST and DELETE name at least one user; PATCH (replace the set) may empty the team. */
export const TeamMembersBody = Type.Object({ user_ids: UserIds(1) });
export const TeamMembersReplaceBody = Type.Object({ user_ids: UserIds(0) });
export type TeamMembersBody = Static<typeof TeamMembersBody>;
