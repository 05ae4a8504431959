import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption of small secrets at rest (AES-256-GCM). The 256-bit key is derived from
 * a secret string with HKDF-SHA256 and a purpose label, so one configured secret can serve several
 * purposes without reusing a key. A sealed value is `v1.<iv>.<tag>.<ciphertext>` (base64url parts);
 * `context` (for example the owning row's id) is bound as associated data, so a sealed value copied
 * to another row does not open there.
 */
export interface SecretBox {
  seal(plain: string, context?: string): string;
  /** Throws when the value was not sealed with this key and context, or was altered. */
  open(sealed: string, context?: string): string;
}

const VERSION = 'v1';

export function createSecretBox(secret: string, purpose: string): SecretBox {
  if (secret.length < 16) throw new Error('an encryption secret needs at least 16 characters');
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `ponte:${purpose}`, 32));
  return {
    seal(plain, context = '') {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    open(sealed, context = '') {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
        throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
