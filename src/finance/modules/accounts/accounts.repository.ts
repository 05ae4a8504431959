import type { Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AccountsTable, MembershipRole } from '../../db/schema.js';

export async function insertAccount(q: Q, name: string, now: number) {
  return q
    .insertInto('accounts')
    .values({ name, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findAccount(q: Q, id: number) {
  return q.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateAccount(q: Q, id: number, values: Updateable<AccountsTable>) {
  return q.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function insertMembership(q: Q, accountId: number, userId: number, role: MembershipRole, now: number) {
  return q
    .insertInto('memberships')
    .values({ account_id: accountId, user_id: userId, role, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A user's membership of an account, with the account's name. */
export async function findMembership(q: Q, accountId: number, userId: number) {
  return q
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select([
      'memberships.id',
      'memberships.account_id',
      'memberships.user_id',
      'memberships.role',
      'memberships.created_at',
      'accounts.name as account_name',
    ])
    .where('memberships.account_id', '=', accountId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
}

/** Whether the user with this (lower-cased) e-mail is a member of the account (users_email_uidx). */
export async function isMemberByEmail(q: Q, accountId: number, email: string): Promise<boolean> {
  const row = await q
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select('memberships.id')
    .where('users.email', '=', email)
    .where('memberships.account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The accounts of a user, oldest membership first (memberships_user_idx). */
export async function listMembershipsOfUser(q: Q, userId: number, page: { limit: number; offset: number }) {
  return q
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.id', 'memberships.account_id', 'memberships.role', 'accounts.name as account_name'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countMembershipsOfUser(q: Q, userId: number): Promise<number> {
  const row = await q
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The members of an account with their user rows, by membership id (memberships_account_user_uidx). */
export async function listMembers(q: Q, accountId: number, page: { limit: number; offset: number }) {
  return q
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.id as membership_id',
      'memberships.role',
      'memberships.created_at as joined_at',
      'users.id',
      'users.email',
      'users.full_name',
      'users.avatar_url',
      'users.email_verified',
      'users.is_super_admin',
    ])
    .where('memberships.account_id', '=', accountId)
    .orderBy('memberships.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countMembers(q: Q, accountId: number, role?: MembershipRole): Promise<number> {
  let query = q
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId);
  if (role) query = query.where('role', '=', role);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteMembership(q: Q, accountId: number, userId: number): Promise<boolean> {
  const result = await q
    .deleteFrom('memberships')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The ids of the account's admin memberships; on PostgreSQL the rows stay locked until the
 * transaction ends, so two concurrent removals cannot both take the last admins away.
 */
export async function lockAdminMemberships(q: Q, accountId: number, dialect: 'sqlite' | 'postgres'): Promise<number[]> {
  let query = q.selectFrom('memberships').select('id').where('account_id', '=', accountId).where('role', '=', 'admin');
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

export async function updateMembershipRole(q: Q, accountId: number, userId: number, role: MembershipRole) {
  await q
    .updateTable('memberships')
    .set({ role })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}
