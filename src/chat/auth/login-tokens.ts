import { randomToken, sha256Hex } from '../../core/security/tokens.js';
import type { Q } from '../context.js';
import * as repo from './login-tokens.repository.js';

/**
 * Single sign-on tokens: the platform interface makes a sign-in link for a user
 * (`GET /platform/api/v1/users/{id}/login`), and `POST /auth/sign_in` with `sso_auth_token`
 * exchanges the token for a session, once, within five minutes. Stored as SHA-256.
 */
export const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000;

/** A new token for the user (the link carries it). */
export async function issueLoginToken(q: Q, userId: number, now = Date.now()): Promise<string> {
  const token = randomToken(32);
  await repo.insertSsoToken(q, userId, sha256Hex(token), now + LOGIN_TOKEN_TTL_MS);
  return token;
}

/** The user id a token stands for, if it is unexpired and unused; it is used up by this call. */
export const consumeLoginToken = (q: Q, token: string, now = Date.now()): Promise<number | undefined> =>
  repo.consumeSsoToken(q, sha256Hex(token), now);
