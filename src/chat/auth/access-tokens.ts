import { randomToken } from '../../core/security/tokens.js';
import type { Q } from '../context.js';
import type { TokenOwnerType } from '../db/schema.js';
import * as repo from './auth.repository.js';

/**
 * The access tokens the auth module resolves on every request: other modules issue and look
 * them up here (users, agent bots, platform apps), never through the auth repository.
 */

/** Issues a new random token (192 bits) for the owner, or records the given one; returns it. */
export async function issueAccessToken(
  q: Q,
  ownerType: TokenOwnerType,
  ownerId: number,
  token: string = randomToken(24),
): Promise<string> {
  await repo.insertToken(q, ownerType, ownerId, token);
  return token;
}

/** The owner's token, if any. */
export function accessTokenOf(q: Q, ownerType: TokenOwnerType, ownerId: number): Promise<string | undefined> {
  return repo.findTokenFor(q, ownerType, ownerId);
}

/** Who a token belongs to, if anyone. */
export function ownerOfToken(q: Q, token: string) {
  return repo.findTokenOwner(q, token);
}
