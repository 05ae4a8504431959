import { randomToken, sha256Hex } from '../../core/security/tokens.js';
import type { Q } from '../context.js';
import type { TokenOwnerType } from '../db/schema.js';
import * as repo from './auth.repository.js';

/**
 * The access tokens the auth module resolves on every request: other modules issue and look
 * them up here (users, agent bots, platform apps), never through the auth repository.
 *
 * A platform app's token is stored as its SHA-256 (it is shown once, when made, and never again);
 * user and bot tokens are stored as they are, since the profile and the bot's page return them.
 */
const stored = (ownerType: TokenOwnerType, token: string) => (ownerType === 'PlatformApp' ? sha256Hex(token) : token);

/** Issues a new random token (192 bits) for the owner, or records the given one; returns it. */
export async function issueAccessToken(
  q: Q,
  ownerType: TokenOwnerType,
  ownerId: number,
  token: string = randomToken(24),
): Promise<string> {
  await repo.insertToken(q, ownerType, ownerId, stored(ownerType, token));
  return token;
}

/** The token of a user or bot, if any (a platform app's is not kept, only its hash). */
export function accessTokenOf(q: Q, ownerType: 'User' | 'AgentBot', ownerId: number): Promise<string | undefined> {
  return repo.findTokenFor(q, ownerType, ownerId);
}

/** Removes the owner's token (a new one is issued next). */
export function revokeAccessTokens(q: Q, ownerType: TokenOwnerType, ownerId: number): Promise<void> {
  return repo.deleteTokenFor(q, ownerType, ownerId);
}

/** Who a token belongs to, if anyone: a user or bot by the token, a platform app by its hash. */
export function ownerOfToken(q: Q, token: string) {
  return repo.findTokenOwner(q, token, sha256Hex(token));
}
