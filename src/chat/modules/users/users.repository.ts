import type { Q } from '../../context.js';
import type { UsersTable } from '../../db/schema.js';
import type { Insertable, Updateable } from 'kysely';

export async function insertUser(q: Q, values: Insertable<UsersTable>) {
  return q.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findUserById(q: Q, id: number) {
  return q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(q: Q, email: string) {
  return q.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function updateUser(q: Q, id: number, values: Updateable<UsersTable>) {
  return q.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteUser(q: Q, id: number) {
  await q.deleteFrom('access_tokens').where('owner_type', '=', 'User').where('owner_id', '=', id).execute();
  await q.deleteFrom('users').where('id', '=', id).execute();
}

/** Users by id (the members of one account when given), for the command line's list. */
export async function listUsers(q: Q, accountId?: number) {
  let query = q.selectFrom('users').select(['users.id', 'users.email', 'users.name']).orderBy('users.id');
  if (accountId !== undefined)
    query = query
      .innerJoin('account_users', 'account_users.user_id', 'users.id')
      .where('account_users.account_id', '=', accountId);
  return query.execute();
}

/** The memberships of these users, in one query. */
export async function membershipsOfUsers(q: Q, userIds: number[]) {
  if (userIds.length === 0) return [];
  return q
    .selectFrom('account_users')
    .select(['user_id', 'account_id', 'role'])
    .where('user_id', 'in', userIds)
    .orderBy('account_id')
    .execute();
}

/** The accounts a user belongs to, with the membership role. */
export async function membershipsOf(q: Q, userId: number) {
  return q
    .selectFrom('account_users')
    .innerJoin('accounts', 'accounts.id', 'account_users.account_id')
    .select([
      'accounts.id as id',
      'accounts.name as name',
      'accounts.locale as locale',
      'accounts.status as status',
      'account_users.role as role',
      'account_users.availability as availability',
      'account_users.auto_offline as auto_offline',
    ])
    .where('account_users.user_id', '=', userId)
    .orderBy('accounts.id')
    .execute();
}
