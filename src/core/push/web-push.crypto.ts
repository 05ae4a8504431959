import { createCipheriv, createECDH, createPublicKey, hkdfSync, randomBytes } from 'node:crypto';
import type { Text } from '../i18n/catalogue.js';

/**
 * Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188), with
 * node:crypto only. The sender makes a fresh P-256 key pair and salt for every message, derives a
 * content key and nonce from the ECDH secret shared with the browser's key (`p256dh`) and the
 * browser's `auth` secret, and sends one record: the header (salt, record size, the sender's public
 * key), then the plaintext, the final-record delimiter and zero padding, sealed with AES-128-GCM.
 */

/** The largest body push services must accept (RFC 8030 section 7.2). */
export const MAX_PUSH_BODY = 4096;
const SALT_LENGTH = 16;
const KEY_LENGTH = 65;
const TAG_LENGTH = 16;
/** salt, record size (4), key id length (1), key id. */
const HEADER_LENGTH = SALT_LENGTH + 4 + 1 + KEY_LENGTH;
/** The longest plaintext one record may carry in a body of MAX_PUSH_BODY (the delimiter takes one byte). */
export const MAX_PUSH_PLAINTEXT = MAX_PUSH_BODY - HEADER_LENGTH - TAG_LENGTH - 1;
/** Padded lengths are rounded up to this many bytes, so a body tells little about its plaintext's length. */
const PAD_BLOCK = 128;

export const toBase64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
export const fromBase64Url = (text: string) => Buffer.from(text, 'base64url');

/** The browser's half of a Web Push subscription (`PushSubscription.getKey()`), base64url. */
export interface ReceiverKeys {
  p256dh: string;
  auth: string;
}

/** A P-256 key pair as raw bytes: the 32-byte private scalar and the 65-byte uncompressed point. */
export interface RawKeyPair {
  privateKey: Buffer;
  publicKey: Buffer;
}

export interface EncryptOptions {
  /** The sender's key pair; a fresh one by default (tests pass RFC 8291's). */
  senderKeys?: RawKeyPair;
  /** 16 random bytes by default. */
  salt?: Buffer;
  /** Zero bytes after the delimiter; by default up to the next multiple of 128 bytes, within the limit. */
  padding?: number;
}

/** Why a `p256dh` key is unusable, or null: 65 bytes, uncompressed, a point on P-256. */
export function receiverKeyProblem(p256dh: string): Text | null {
  const key = fromBase64Url(p256dh);
  if (key.length !== KEY_LENGTH || key[0] !== 4)
    return 'must be an uncompressed P-256 public key (65 bytes, base64url)';
  try {
    createPublicKey({ key: p256Jwk(key), format: 'jwk' });
    return null;
  } catch {
    return 'is not a point on the P-256 curve';
  }
}

/** The public JWK of a 65-byte uncompressed P-256 point (plus `d` for a private key). */
export function p256Jwk(publicKey: Buffer, privateKey?: Buffer) {
  return {
    kty: 'EC',
    crv: 'P-256',
    x: toBase64Url(publicKey.subarray(1, 33)),
    y: toBase64Url(publicKey.subarray(33, 65)),
    ...(privateKey ? { d: toBase64Url(privateKey) } : {}),
  };
}

/** A fresh P-256 key pair. */
export function generateKeyPair(): RawKeyPair {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { privateKey: ecdh.getPrivateKey(), publicKey: ecdh.getPublicKey() };
}

/** The public point of a 32-byte P-256 private key (throws if it is not one). */
export function publicKeyOf(privateKey: Buffer): Buffer {
  if (privateKey.length !== 32) throw new Error('a P-256 private key is 32 bytes');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey();
}

/**
 * The input keying material of RFC 8291 section 3.3, from the ECDH secret and the auth secret,
 * bound to both public keys.
 */
function webPushKeyMaterial(ecdhSecret: Buffer, auth: Buffer, receiverPublic: Buffer, senderPublic: Buffer) {
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  return Buffer.from(hkdfSync('sha256', ecdhSecret, auth, info, 32));
}

/** The content encryption key and nonce of RFC 8188 section 2.2 and 2.3 (one record: sequence 0). */
function contentKeyAndNonce(ikm: Buffer, salt: Buffer) {
  return {
    key: Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16)),
    nonce: Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12)),
  };
}

/** The encrypted body of one Web Push message for the receiver's keys. */
export function encryptWebPush(plaintext: Buffer, receiver: ReceiverKeys, options: EncryptOptions = {}): Buffer {
  if (plaintext.length > MAX_PUSH_PLAINTEXT)
    throw new RangeError(`a push message holds at most ${MAX_PUSH_PLAINTEXT} bytes (got ${plaintext.length})`);
  const receiverPublic = fromBase64Url(receiver.p256dh);
  const auth = fromBase64Url(receiver.auth);
  const sender = options.senderKeys ?? generateKeyPair();
  const salt = options.salt ?? randomBytes(SALT_LENGTH);

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(sender.privateKey);
  const ikm = webPushKeyMaterial(ecdh.computeSecret(receiverPublic), auth, receiverPublic, sender.publicKey);
  const { key, nonce } = contentKeyAndNonce(ikm, salt);

  const unpadded = plaintext.length + 1;
  const padding =
    options.padding ?? Math.min(Math.ceil(unpadded / PAD_BLOCK) * PAD_BLOCK, MAX_PUSH_PLAINTEXT + 1) - unpadded;
  // The plaintext, then 0x02 (this is the last record), then zeros.
  const record = Buffer.concat([plaintext, Buffer.from([2]), Buffer.alloc(padding)]);
  const cipher = createCipheriv('aes-128-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(record), cipher.final(), cipher.getAuthTag()]);

  const header = Buffer.alloc(HEADER_LENGTH);
  salt.copy(header, 0);
  // The record size: any value above the one record's length; 4096 as in RFC 8291's example.
  header.writeUInt32BE(MAX_PUSH_BODY, SALT_LENGTH);
  header.writeUInt8(KEY_LENGTH, SALT_LENGTH + 4);
  sender.publicKey.copy(header, SALT_LENGTH + 5);
  return Buffer.concat([header, sealed]);
}
