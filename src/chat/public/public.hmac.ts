import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../core/http/errors.js';
import type { Inbox } from '../db/schema.js';

/**
 * Identity validation of the public interface, as Chatwoot does it: the customer's backend signs
 * the contact's identifier with the inbox's key, `identifier_hash = hex(HMAC-SHA256(hmac_token,
 * identifier))`, and the widget sends the hash with the identifier.
 */

/** Chatwoot's answer to a bad hash (401, code `hmac_failed`). */
export const hmacFailed = () => new HttpError(401, 'hmac_failed', 'HMAC failed: Invalid Identifier Hash Provided');

/** The hash a customer's backend computes for an identifier (hex, lower case). */
export function identifierHash(key: string, identifier: string): string {
  return createHmac('sha256', key).update(identifier, 'utf8').digest('hex');
}

/** Constant-time check of a hash against the inbox's key; no key or no identifier verifies nothing. */
export function validIdentifierHash(key: string | null, identifier: string | null | undefined, hash: string): boolean {
  if (!key || !identifier) return false;
  const expected = Buffer.from(identifierHash(key, identifier), 'utf8');
  const given = Buffer.from(hash.toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface IdentityClaim {
  /** The identifier_hash sent; null, undefined and '' count as not sent (Chatwoot's `blank?`). */
  hash: string | null | undefined;
  /** The identifier the hash must sign: the one sent, or on an update the contact's own. */
  identifier: string | null | undefined;
  /** Whether the request names an identity (an identifier or e-mail) that a mandatory inbox guards. */
  namesIdentity: boolean;
}

/**
 * Applies the inbox's rules before anything is written: a hash that is sent must be valid; an
 * `hmac_mandatory` inbox refuses a request naming an identity without one. Returns whether the
 * identity is verified (a valid hash was sent). Throws `hmacFailed()` otherwise.
 */
export function checkIdentity(inbox: Inbox, claim: IdentityClaim): boolean {
  if (claim.hash) {
    if (!validIdentifierHash(inbox.hmac_token, claim.identifier, claim.hash)) throw hmacFailed();
    return true;
  }
  if (inbox.hmac_mandatory === 1 && claim.namesIdentity) throw hmacFailed();
  return false;
}
