import type { Generated } from 'kysely';
import type { Q } from '../context.js';

/** One sign-in session (sessions.ts): a client id, the SHA-256 of its access token, its expiry. */
export interface UserSessionsTable {
  id: Generated<number>;
  user_id: number;
  /** Random, not secret; names the session (devise_token_auth's `client`). */
  client: string;
  token_hash: string;
  expires_at: number;
  created_at: number;
}

declare module '../db/schema.js' {
  interface ChatDatabase {
    user_sessions: UserSessionsTable;
  }
}

export async function insertSession(q: Q, values: Omit<UserSessionsTable, 'id'>) {
  await q.insertInto('user_sessions').values(values).execute();
}

/** Removes the user's expired sessions and all but the newest `keep` of the others. */
export async function pruneSessions(q: Q, userId: number, now: number, keep: number) {
  await q.deleteFrom('user_sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  const kept = await q
    .selectFrom('user_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep)
    .execute();
  let query = q.deleteFrom('user_sessions').where('user_id', '=', userId);
  if (kept.length > 0)
    query = query.where(
      'id',
      'not in',
      kept.map((k) => k.id),
    );
  await query.execute();
}

/** The session with this client id, with its user (user_sessions_client_uidx). */
export async function findSessionWithUser(q: Q, client: string) {
  return q
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select(['user_sessions.token_hash as session_token_hash', 'user_sessions.expires_at as session_expires_at'])
    .selectAll('users')
    .where('user_sessions.client', '=', client)
    .executeTakeFirst();
}

export async function deleteSession(q: Q, userId: number, client: string) {
  await q.deleteFrom('user_sessions').where('user_id', '=', userId).where('client', '=', client).execute();
}

export async function deleteSessionsOf(q: Q, userId: number) {
  await q.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
}
