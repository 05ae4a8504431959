import { Type, type Static } from '@sinclair/typebox';
import { UserIds } from '../agents/agents.schema.js';

/** Chatwoot's document types `inbox_id` as a string in PATCH and DELETE; a numeric string is accepted. */
const InboxId = Type.Union([
  Type.Integer({ minimum: 1, maximum: 2147483647 }),
  Type.String({ pattern: '^[1-9][0-9]{0,9}$', maxLength: 10 }),
]);

/** POST and DELETE name at least one user; PATCH (replace the set) may empty the inbox. */
export const InboxMembersBody = Type.Object({ inbox_id: InboxId, user_ids: UserIds(1) });
export const InboxMembersReplaceBody = Type.Object({ inbox_id: InboxId, user_ids: UserIds(0) });
export type InboxMembersBody = Static<typeof InboxMembersBody>;
