import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AccountRole, AccountsTable } from '../../db/schema.js';

export async function insertAccount(q: Q, values: Insertable<AccountsTable>) {
  return q.insertInto('accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findAccount(q: Q, id: number) {
  return q.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every account with its number of members, by id (the command line's list). */
export async function listAccountsWithMembers(q: Q) {
  return q
    .selectFrom('accounts')
    .select((eb) => [
      'accounts.id',
      'accounts.name',
      'accounts.locale',
      'accounts.plan',
      'accounts.status',
      eb
        .selectFrom('account_users')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('account_users.account_id', '=', 'accounts.id')
        .as('members'),
    ])
    .orderBy('accounts.id')
    .execute();
}

export async function updateAccount(q: Q, id: number, values: Updateable<AccountsTable>) {
  return q.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteAccount(q: Q, id: number) {
  await q.deleteFrom('accounts').where('id', '=', id).execute();
}

/**
 * Reserves the next per-account conversation number. The UPDATE takes the account row's lock
 * (PostgreSQL) or the write lock (SQLite), so concurrent creations never share a number.
 */
export async function nextConversationDisplayId(q: Q, accountId: number): Promise<number> {
  const row = await q
    .updateTable('accounts')
    .set((eb) => ({ last_conversation_display_id: eb('last_conversation_display_id', '+', 1) }))
    .where('id', '=', accountId)
    .returning('last_conversation_display_id')
    .executeTakeFirstOrThrow();
  return row.last_conversation_display_id;
}

export async function listAccountUsers(q: Q, accountId: number) {
  return q.selectFrom('account_users').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function findAccountUser(q: Q, accountId: number, userId: number) {
  return q
    .selectFrom('account_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds a membership or changes its role. */
export async function upsertAccountUser(q: Q, accountId: number, userId: number, role: AccountRole) {
  const now = Date.now();
  return q
    .insertInto('account_users')
    .values({ account_id: accountId, user_id: userId, role, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'user_id']).doUpdateSet({ role, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Removes a membership and what hangs off it in that account: inbox and team memberships, and
 * the user's assignments (the conversations become unassigned).
 */
export async function deleteAccountUser(q: Q, accountId: number, userId: number): Promise<boolean> {
  const res = await q
    .deleteFrom('account_users')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) return false;
  await q.deleteFrom('inbox_members').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  await q.deleteFrom('team_members').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  await q
    .updateTable('conversations')
    .set({ assignee_id: null, updated_at: Date.now() })
    .where('account_id', '=', accountId)
    .where('assignee_id', '=', userId)
    .execute();
  return true;
}

/**
 * Takes the account row's lock for the rest of the transaction (a no-op UPDATE), so that checks
 * spanning several rows of the account (such as "one administrator must remain") cannot race.
 */
export async function lockAccount(q: Q, accountId: number): Promise<void> {
  await q
    .updateTable('accounts')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', accountId)
    .execute();
}

/** Unassigns every conversation of the user, in every account (the user is being deleted). */
export async function unassignUserEverywhere(q: Q, userId: number): Promise<void> {
  await q
    .updateTable('conversations')
    .set({ assignee_id: null, updated_at: Date.now() })
    .where('assignee_id', '=', userId)
    .execute();
}
