import { randomUUID } from 'node:crypto';
import { unauthorized } from '../../../core/http/errors.js';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import { ACCESS_TOKEN_TTL_MS, signAccessToken } from '../../auth/access-token.js';
import type { FinanceDeps, Q } from '../../context.js';
import type { MembershipRole, User } from '../../db/schema.js';
import * as repo from './sessions.repository.js';

/** Refresh tokens live 30 days and are rotated on every use. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

/** A refresh token presented for rotation, once its row is claimed (see `rotate`). */
export interface RotatedFrom {
  familyId: string;
  userId: number;
  accountId: number;
}

const INVALID = 'Invalid or expired refresh token';

/**
 * Sessions: an access token (JWT, 24 h) plus an opaque refresh token (30 days, stored hashed) in a
 * family. Rotation marks the presented token used and issues a new one in the same family;
 * presenting a used token again is taken as theft and revokes the whole family.
 */
export class SessionsService {
  constructor(private readonly deps: FinanceDeps) {}

  /** Issues a pair for the user in the account; a new family unless `familyId` continues one. */
  async issue(
    q: Q,
    user: Pick<User, 'id' | 'token_version'>,
    accountId: number,
    role: MembershipRole,
    familyId?: string,
  ): Promise<TokenPair> {
    const now = Date.now();
    const refreshToken = `rt_${randomToken(32)}`;
    await repo.insertRefreshToken(q, {
      family_id: familyId ?? randomUUID(),
      token_hash: sha256Hex(refreshToken),
      user_id: user.id,
      account_id: accountId,
      expires_at: now + REFRESH_TOKEN_TTL_MS,
      used_at: null,
      revoked_at: null,
      created_at: now,
    });
    const accessToken = await signAccessToken(this.deps.secrets.jwtKey, {
      userId: user.id,
      accountId,
      role,
      tokenVersion: user.token_version,
    });
    return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_MS / 1000 };
  }

  /**
   * Claims a refresh token for rotation inside the caller's transaction. Unknown, expired or
   * revoked: 401. Already used (reuse): the family is revoked, and `reused` is returned so the
   * caller can commit that before answering 401.
   */
  async claim(
    q: Q,
    refreshToken: string,
  ): Promise<{ reused: true; familyId: string } | ({ reused: false } & RotatedFrom)> {
    const now = Date.now();
    const row = await repo.findRefreshTokenByHash(q, sha256Hex(refreshToken));
    if (!row || row.revoked_at !== null || row.expires_at <= now) throw unauthorized(INVALID);
    if (row.used_at !== null || !(await repo.claimRefreshToken(q, row.id, now))) {
      await repo.revokeFamily(q, row.family_id, now);
      return { reused: true, familyId: row.family_id };
    }
    return { reused: false, familyId: row.family_id, userId: row.user_id, accountId: row.account_id };
  }

  /** Revokes every refresh token of the user (password change or reset), or only those of one account. */
  revokeAll(q: Q, userId: number, accountId?: number): Promise<void> {
    return repo.revokeUserTokens(q, userId, Date.now(), accountId);
  }

  revokeFamily(q: Q, familyId: string): Promise<void> {
    return repo.revokeFamily(q, familyId, Date.now());
  }

  /** Housekeeping: drops tokens expired for a day or more. */
  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteExpiredRefreshTokens(this.deps.db, now - 24 * 60 * 60 * 1000);
  }
}

export const INVALID_REFRESH_TOKEN = INVALID;
