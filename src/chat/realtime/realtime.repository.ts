import type { Q } from '../context.js';
import type { AccountRole } from '../db/schema.js';

/** Lookups of the realtime channel: who a pubsub token is, and what an agent may see. */

export async function userIdByPubsubToken(q: Q, token: string): Promise<number | undefined> {
  const row = await q.selectFrom('users').select('id').where('pubsub_token', '=', token).executeTakeFirst();
  return row?.id;
}

export async function contactInboxByPubsubToken(q: Q, token: string) {
  return q
    .selectFrom('contact_inboxes')
    .select(['id', 'account_id', 'inbox_id', 'contact_id', 'source_id'])
    .where('pubsub_token', '=', token)
    .executeTakeFirst();
}

export interface Membership {
  role: AccountRole;
  inboxIds: number[];
}

/**
 * The role and inbox memberships of users in an account, in one query (account_users joined with
 * inbox_members, both by their (account_id, user_id) indexes). Users who are not members are absent.
 */
export async function memberships(
  q: Q,
  accountId: number,
  userIds: readonly number[],
): Promise<Map<number, Membership>> {
  const out = new Map<number, Membership>();
  if (userIds.length === 0) return out;
  const rows = await q
    .selectFrom('account_users as au')
    .leftJoin('inbox_members as im', (join) =>
      join.onRef('im.account_id', '=', 'au.account_id').onRef('im.user_id', '=', 'au.user_id'),
    )
    .select(['au.user_id', 'au.role', 'im.inbox_id'])
    .where('au.account_id', '=', accountId)
    .where('au.user_id', 'in', [...userIds])
    .execute();
  for (const row of rows) {
    let entry = out.get(row.user_id);
    if (!entry) out.set(row.user_id, (entry = { role: row.role, inboxIds: [] }));
    if (row.inbox_id !== null) entry.inboxIds.push(row.inbox_id);
  }
  return out;
}
