import type { Q } from '../../context.js';

export async function insertVerification(q: Q, userId: number, tokenHash: string, expiresAt: number, now: number) {
  await q
    .insertInto('email_verifications')
    .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: now })
    .execute();
}

/** Uses a link if it is unused and unexpired; its user, or undefined (one conditional update). */
export async function claimVerification(q: Q, tokenHash: string, now: number): Promise<number | undefined> {
  const row = await q
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Retires a user's unused links (a newer one replaces them). */
export async function retireVerifications(q: Q, userId: number, now: number) {
  await q
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function deleteVerificationsExpiredBefore(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('email_verifications').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
