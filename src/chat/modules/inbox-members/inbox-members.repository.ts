import type { Q } from '../../context.js';

/** User ids of an inbox's members. */
export async function inboxMemberIds(q: Q, accountId: number, inboxId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('inbox_members')
    .select('user_id')
    .where('account_id', '=', accountId)
    .where('inbox_id', '=', inboxId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Adds members; those already in the inbox are left as they are. */
export async function addInboxMembers(q: Q, accountId: number, inboxId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  const now = Date.now();
  await q
    .insertInto('inbox_members')
    .values(userIds.map((userId) => ({ account_id: accountId, inbox_id: inboxId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['inbox_id', 'user_id']).doNothing())
    .execute();
}

export async function removeInboxMembers(q: Q, accountId: number, inboxId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await q
    .deleteFrom('inbox_members')
    .where('account_id', '=', accountId)
    .where('inbox_id', '=', inboxId)
    .where('user_id', 'in', userIds)
    .execute();
}
