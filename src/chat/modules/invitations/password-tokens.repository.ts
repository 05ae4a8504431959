import type { Q } from '../../context.js';
import type { PasswordTokenPurpose } from './password-tokens.migration.js';

/**
 * SQL of the set-password links. Tokens are user-scoped (users are global): a link is found by
 * its hash alone, which only its holder can compute.
 */

export interface NewPasswordToken {
  userId: number;
  purpose: PasswordTokenPurpose;
  tokenHash: string;
  accountId: number | null;
  expiresAt: number;
  now: number;
}

export async function insertPasswordToken(q: Q, t: NewPasswordToken): Promise<void> {
  await q
    .insertInto('password_tokens')
    .values({
      user_id: t.userId,
      purpose: t.purpose,
      token_hash: t.tokenHash,
      account_id: t.accountId,
      expires_at: t.expiresAt,
      used_at: null,
      created_at: t.now,
    })
    .execute();
}

/** A link by its hash, with its user's e-mail and name and, for an invitation, the account's name. */
export async function findPasswordToken(q: Q, tokenHash: string) {
  return q
    .selectFrom('password_tokens')
    .innerJoin('users', 'users.id', 'password_tokens.user_id')
    .leftJoin('accounts', 'accounts.id', 'password_tokens.account_id')
    .select([
      'password_tokens.id',
      'password_tokens.user_id',
      'password_tokens.purpose',
      'password_tokens.expires_at',
      'password_tokens.used_at',
      'users.email',
      'users.name',
      'accounts.name as account_name',
      'accounts.locale as account_locale',
    ])
    .where('password_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Uses a link if it still works; false when another request used it first or it expired (one conditional update). */
export async function claimPasswordToken(q: Q, id: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Retires the user's links that still work (all of them, or those of one purpose). */
export async function retirePasswordTokens(
  q: Q,
  userId: number,
  now: number,
  purpose?: PasswordTokenPurpose,
): Promise<void> {
  let query = q
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null);
  if (purpose) query = query.where('purpose', '=', purpose);
  await query.execute();
}

/** Drops links that expired before `before`; returns how many. */
export async function deleteExpiredPasswordTokens(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('password_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
