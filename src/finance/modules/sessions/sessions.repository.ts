import type { Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type { RefreshTokensTable } from '../../db/schema.js';

export async function insertRefreshToken(q: Q, values: Insertable<RefreshTokensTable>) {
  await q.insertInto('refresh_tokens').values(values).execute();
}

export async function findRefreshTokenByHash(q: Q, tokenHash: string) {
  return q.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Marks a token used if (and only if) it is still unused and not revoked; false when another request
 * got there first (which counts as reuse). Race-free on both dialects: one conditional update.
 */
export async function claimRefreshToken(q: Q, id: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeFamily(q: Q, familyId: string, now: number) {
  await q
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes a user's refresh tokens: all of them, or those of one account. */
export async function revokeUserTokens(q: Q, userId: number, now: number, accountId?: number) {
  let query = q
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  await query.execute();
}

/** Deletes tokens that expired before `before` (housekeeping). */
export async function deleteExpiredRefreshTokens(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('refresh_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
