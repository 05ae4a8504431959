import { randomToken, safeEqual, sha256Hex } from '../../core/security/tokens.js';
import type { Q } from '../context.js';
import type { User } from '../db/schema.js';
import * as repo from './sessions.repository.js';

/**
 * Sign-in sessions, for the clients that authenticate as Chatwoot's dashboard and mobile app do
 * (devise_token_auth): `POST /auth/sign_in` answers headers `access-token`, `client`, `uid`,
 * `token-type: Bearer` and `expiry`, and those clients send `access-token`, `client` and `uid`
 * back on every request, which every route accepts as it accepts `api_access_token`. Here:
 *
 * - `client` names one session (one signed-in device); random, not secret.
 * - `access-token` is that session's secret (192 random bits, stored as SHA-256).
 * - `uid` is the user's e-mail; it must match the session's user.
 * - `expiry` is when the session lapses, in UNIX seconds: 60 days after sign-in (Chatwoot's two
 *   months), enforced here.
 *
 * A user keeps at most 10 sessions (the oldest go first, as devise_token_auth's device limit);
 * `DELETE /auth/sign_out` ends one; a new password ends them all. The user's API access token is
 * not affected by any of this.
 */

export const SESSION_LIFETIME_MS = 60 * 24 * 60 * 60 * 1000;
export const MAX_SESSIONS_PER_USER = 10;

export interface OpenedSession {
  client: string;
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** The headers a devise-token client sends; all three are needed. */
export interface SessionHeaders {
  client: string;
  accessToken: string;
  uid: string;
}

/** Starts a session for the user, making room under the per-user limit. */
export async function openSession(q: Q, userId: number, now = Date.now()): Promise<OpenedSession> {
  await repo.pruneSessions(q, userId, now, MAX_SESSIONS_PER_USER - 1);
  const session = { client: randomToken(16), accessToken: randomToken(24), expiresAt: now + SESSION_LIFETIME_MS };
  await repo.insertSession(q, {
    user_id: userId,
    client: session.client,
    token_hash: sha256Hex(session.accessToken),
    expires_at: session.expiresAt,
    created_at: now,
  });
  return session;
}

/** The user a live session's headers name, or undefined (unknown client, wrong token, other uid, expired). */
export async function userOfSession(q: Q, headers: SessionHeaders, now = Date.now()): Promise<User | undefined> {
  const row = await repo.findSessionWithUser(q, headers.client);
  if (!row || row.session_expires_at <= now) return undefined;
  if (!safeEqual(row.session_token_hash, sha256Hex(headers.accessToken))) return undefined;
  if (row.email.toLowerCase() !== headers.uid.trim().toLowerCase()) return undefined;
  const { session_token_hash: _hash, session_expires_at: _expiry, ...user } = row;
  return user;
}

/** Ends one session of the user (sign-out). */
export function closeSession(q: Q, userId: number, client: string): Promise<void> {
  return repo.deleteSession(q, userId, client);
}

/** Ends every session of the user (a new password). */
export function closeAllSessions(q: Q, userId: number): Promise<void> {
  return repo.deleteSessionsOf(q, userId);
}
