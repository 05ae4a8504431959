import type { Q } from '../context.js';

export async function insertSsoToken(q: Q, userId: number, tokenHash: string, expiresAt: number) {
  await q
    .insertInto('sso_tokens')
    .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: Date.now() })
    .execute();
}

/** Marks an unexpired, unused SSO token as used; returns its user id if it was valid. */
export async function consumeSsoToken(q: Q, tokenHash: string, now: number): Promise<number | undefined> {
  const row = await q
    .updateTable('sso_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}
