import type { Q } from '../context.js';

/**
 * The one query of the auth hook: the user's token version and SuperAdmin flag, and their role in
 * the token's account (null when no longer a member). Primary key of users + the unique
 * (account_id, user_id) index of memberships.
 */
export async function findAuthState(q: Q, userId: number, accountId: number) {
  return q
    .selectFrom('users')
    .leftJoin('memberships', (j) =>
      j.onRef('memberships.user_id', '=', 'users.id').on('memberships.account_id', '=', accountId),
    )
    .select(['users.token_version', 'users.is_super_admin', 'memberships.role'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}
