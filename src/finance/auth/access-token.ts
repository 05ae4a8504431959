import { SignJWT, errors, jwtVerify } from 'jose';
import type { MembershipRole } from '../db/schema.js';

/** Access tokens live 24 hours (the contract). */
export const ACCESS_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const ISSUER = 'ponte-finance';
const AUDIENCE = 'ponte-finance-api';

export interface AccessClaims {
  userId: number;
  accountId: number;
  role: MembershipRole;
  tokenVersion: number;
}

/**
 * Signs an access token: HS256 JWT with `sub` (user id), `acc` (account id), `role`, `tv` (the user's
 * token version), issuer/audience, `iat` and `exp`. `now` exists for tests of expiry.
 */
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ acc: String(claims.accountId), role: claims.role, tv: claims.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_MS / 1000)
    .sign(key);
}

const positiveId = (v: unknown) => (typeof v === 'string' && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : null);

/** The claims of a valid, unexpired token; null for anything else (bad signature, expired, malformed). */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    const userId = positiveId(payload.sub);
    const accountId = positiveId(payload.acc);
    const role = payload.role;
    const tokenVersion = payload.tv;
    if (
      userId === null ||
      accountId === null ||
      (role !== 'admin' && role !== 'agent') ||
      !Number.isInteger(tokenVersion)
    )
      return null;
    return { userId, accountId, role, tokenVersion: tokenVersion as number };
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}
