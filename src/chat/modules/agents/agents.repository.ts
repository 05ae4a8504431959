import type { Insertable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Q } from '../../context.js';
import type { AccountUsersTable } from '../../db/schema.js';

/** Members of an account with their user: one join, never a query per member. */
function agentsOf(q: Q, accountId: number) {
  return q
    .selectFrom('account_users')
    .innerJoin('users', 'users.id', 'account_users.user_id')
    .select([
      'users.id as id',
      'users.name as name',
      'users.display_name as display_name',
      'users.email as email',
      'users.avatar_url as avatar_url',
      // Whether the user has chosen a password (an invited agent has not yet): the agent's `confirmed`.
      sql<number>`case when users.password_hash is null then 0 else 1 end`.as('has_password'),
      'account_users.account_id as account_id',
      'account_users.role as role',
      'account_users.availability as availability',
      'account_users.auto_offline as auto_offline',
    ])
    .where('account_users.account_id', '=', accountId);
}

export type AgentRow = NonNullable<Awaited<ReturnType<typeof findAgent>>>;

/** The account's agents by name, or only those in `onlyIds`. */
export async function listAgents(q: Q, accountId: number, onlyIds?: number[]) {
  let query = agentsOf(q, accountId);
  if (onlyIds) {
    if (onlyIds.length === 0) return [];
    query = query.where('users.id', 'in', onlyIds);
  }
  return query
    .orderBy(sql`lower(users.name)`)
    .orderBy('users.id')
    .execute();
}

export async function findAgent(q: Q, accountId: number, userId: number) {
  return agentsOf(q, accountId).where('users.id', '=', userId).executeTakeFirst();
}

export async function insertMembership(q: Q, values: Insertable<AccountUsersTable>) {
  await q.insertInto('account_users').values(values).execute();
}

export async function updateMembership(q: Q, accountId: number, userId: number, values: Updateable<AccountUsersTable>) {
  await q
    .updateTable('account_users')
    .set(values)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countAdministrators(q: Q, accountId: number): Promise<number> {
  const row = await q
    .selectFrom('account_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('role', '=', 'administrator')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
