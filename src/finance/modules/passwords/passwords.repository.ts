import type { Q } from '../../context.js';

export async function insertReset(q: Q, userId: number, tokenHash: string, expiresAt: number, now: number) {
  await q
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: now })
    .execute();
}

export async function findResetByHash(q: Q, tokenHash: string) {
  return q.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Uses a reset token if it is still unused and unexpired; false otherwise (one conditional update). */
export async function claimReset(q: Q, id: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Retires a user's unused reset tokens (a newer link, or a password change, replaces them). */
export async function retireUserResets(q: Q, userId: number, now: number) {
  await q
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function deleteExpiredResets(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('password_resets').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
