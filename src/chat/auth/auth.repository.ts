import type { Q } from '../context.js';
import type { AccountRole, TokenOwnerType } from '../db/schema.js';

/**
 * The owner of a presented token: a user or bot whose stored token is it, or a platform app whose
 * stored hash is its hash (a platform row never matches the presented text itself, so a leaked
 * hash is no token).
 */
export async function findTokenOwner(q: Q, token: string, tokenHash: string) {
  return q
    .selectFrom('access_tokens')
    .select(['owner_type', 'owner_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('token', '=', token), eb('owner_type', '<>', 'PlatformApp')]),
        eb.and([eb('token', '=', tokenHash), eb('owner_type', '=', 'PlatformApp')]),
      ]),
    )
    .executeTakeFirst();
}

export async function findUser(q: Q, id: number) {
  return q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findBot(q: Q, id: number) {
  return q.selectFrom('agent_bots').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findMembershipRole(q: Q, accountId: number, userId: number): Promise<AccountRole | undefined> {
  const row = await q
    .selectFrom('account_users')
    .select('role')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** A global bot (no account) may act in an account where it is connected to an inbox. */
export async function botConnectedToAccount(q: Q, accountId: number, botId: number): Promise<boolean> {
  const row = await q
    .selectFrom('inboxes')
    .select('id')
    .where('account_id', '=', accountId)
    .where('agent_bot_id', '=', botId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function accountExists(q: Q, accountId: number): Promise<boolean> {
  const row = await q.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

export async function insertToken(q: Q, ownerType: TokenOwnerType, ownerId: number, token: string) {
  await q
    .insertInto('access_tokens')
    .values({ owner_type: ownerType, owner_id: ownerId, token, created_at: Date.now() })
    .execute();
}

export async function findTokenFor(q: Q, ownerType: TokenOwnerType, ownerId: number) {
  const row = await q
    .selectFrom('access_tokens')
    .select('token')
    .where('owner_type', '=', ownerType)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return row?.token;
}

export async function deleteTokenFor(q: Q, ownerType: TokenOwnerType, ownerId: number) {
  await q.deleteFrom('access_tokens').where('owner_type', '=', ownerType).where('owner_id', '=', ownerId).execute();
}
