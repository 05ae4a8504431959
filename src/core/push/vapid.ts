import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { loadOrCreateSecret } from '../security/secrets.js';
import type { VapidKeys } from './push.config.js';
import { fromBase64Url, generateKeyPair, p256Jwk, publicKeyOf, toBase64Url } from './web-push.crypto.js';

/**
 * VAPID (RFC 8292): the application server's identity towards push services. Every Web Push
 * request carries `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed ES256 with the
 * server's P-256 key, its `aud` the push service's origin, `exp` within 24 hours, `sub` a contact.
 * Browsers bind a subscription to the public key the page subscribed with, so the key pair must
 * stay the same across restarts and instances.
 */

/** Where a generated private key is kept under DATA_DIR. */
export const VAPID_KEY_FILE = 'vapid-private.key';

/** How long a signed JWT is valid (RFC 8292 allows at most 24 hours). */
const JWT_LIFETIME_S = 12 * 3600;
/** A cached JWT is signed again once less than this is left. */
const JWT_RENEW_S = 3600;
/** Audiences remembered at most (push services are few; an endless list would be a leak). */
const CACHE_LIMIT = 256;

/**
 * The configured pair, or the one kept in DATA_DIR/vapid-private.key: generated at first start,
 * created exclusively so that processes starting together agree (core/security/secrets.ts).
 */
export function loadVapidKeys(dataDir: string, configured: VapidKeys | null): VapidKeys {
  if (configured) return configured;
  const privateKey = loadOrCreateSecret(dataDir, VAPID_KEY_FILE, null, () => toBase64Url(generateKeyPair().privateKey));
  try {
    return { privateKey, publicKey: toBase64Url(publicKeyOf(fromBase64Url(privateKey))) };
  } catch {
    throw new Error(`${dataDir}/${VAPID_KEY_FILE} does not hold a P-256 private key (32 bytes, base64url)`);
  }
}

/** Signs the VAPID header of each push service origin, reusing a JWT until its last hour. */
export class VapidSigner {
  readonly publicKey: string;
  private readonly key: KeyObject;
  private readonly cache = new Map<string, { header: string; renewAt: number }>();

  constructor(
    keys: VapidKeys,
    private readonly subject: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.publicKey = keys.publicKey;
    this.key = createPrivateKey({
      key: p256Jwk(fromBase64Url(keys.publicKey), fromBase64Url(keys.privateKey)),
      format: 'jwk',
    });
  }

  /** The `Authorization` header for a request to `endpoint`. */
  async authorization(endpoint: string): Promise<string> {
    const audience = new URL(endpoint).origin;
    const now = Math.floor(this.clock() / 1000);
    const cached = this.cache.get(audience);
    if (cached && now < cached.renewAt) return cached.header;
    const jwt = await new SignJWT({ sub: this.subject })
      .setProtectedHeader({ typ: 'JWT', alg: 'ES256' })
      .setAudience(audience)
      .setExpirationTime(now + JWT_LIFETIME_S)
      .sign(this.key);
    const header = `vapid t=${jwt}, k=${this.publicKey}`;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(audience, { header, renewAt: now + JWT_LIFETIME_S - JWT_RENEW_S });
    return header;
  }
}
