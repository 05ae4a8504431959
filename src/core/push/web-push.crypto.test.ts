import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptWebPush } from '../../../test/helpers/push-receivers.js';
import {
  encryptWebPush,
  fromBase64Url,
  MAX_PUSH_BODY,
  MAX_PUSH_PLAINTEXT,
  publicKeyOf,
  receiverKeyProblem,
  toBase64Url,
} from './web-push.crypto.js';

/** RFC 8291 appendix A: the example's keys, salt, plaintext and the message it gives. */
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_' +
    'yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

function browser() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    privateKey: ecdh.getPrivateKey(),
    auth,
    keys: { p256dh: toBase64Url(ecdh.getPublicKey()), auth: toBase64Url(auth) },
  };
}

describe('Web Push encryption (RFC 8291, aes128gcm)', () => {
  it("gives RFC 8291's ciphertext for its keys, salt and plaintext", () => {
    expect(toBase64Url(publicKeyOf(fromBase64Url(RFC.asPrivate)))).toBe(RFC.asPublic);
    const body = encryptWebPush(
      Buffer.from(RFC.plaintext),
      { p256dh: RFC.uaPublic, auth: RFC.auth },
      {
        senderKeys: { privateKey: fromBase64Url(RFC.asPrivate), publicKey: fromBase64Url(RFC.asPublic) },
        salt: fromBase64Url(RFC.salt),
        padding: 0,
      },
    );
    expect(toBase64Url(body)).toBe(RFC.body);
  });

  it("the test receiver's decryption reads RFC 8291's message (so it checks the sender independently)", () => {
    const plaintext = decryptWebPush(fromBase64Url(RFC.body), fromBase64Url(RFC.uaPrivate), fromBase64Url(RFC.auth));
    expect(plaintext.toString()).toBe(RFC.plaintext);
  });

  it('pads to a multiple of 128 bytes, uses a fresh key and salt per message, and decrypts', () => {
    const ua = browser();
    const text = Buffer.from('{"title":"Hello","body":"ünïcode ✓"}');
    const a = encryptWebPush(text, ua.keys);
    const b = encryptWebPush(text, ua.keys);
    expect(a.equals(b)).toBe(false);
    expect(a.subarray(0, 16).equals(b.subarray(0, 16))).toBe(false);
    expect(a.subarray(21, 86).equals(b.subarray(21, 86))).toBe(false);
    // Header (86 bytes), one padded record of 128 bytes, the tag (16).
    expect(a.length).toBe(86 + 128 + 16);
    expect(decryptWebPush(a, ua.privateKey, ua.auth).equals(text)).toBe(true);
    expect(decryptWebPush(b, ua.privateKey, ua.auth).equals(text)).toBe(true);
  });

  it('fills a 4096-byte body at most, and refuses a longer plaintext', () => {
    const ua = browser();
    const longest = Buffer.alloc(MAX_PUSH_PLAINTEXT, 'x');
    const body = encryptWebPush(longest, ua.keys);
    expect(body.length).toBe(MAX_PUSH_BODY);
    expect(decryptWebPush(body, ua.privateKey, ua.auth).equals(longest)).toBe(true);
    expect(() => encryptWebPush(Buffer.alloc(MAX_PUSH_PLAINTEXT + 1), ua.keys)).toThrow(RangeError);
  });

  it('refuses a p256dh that is not an uncompressed P-256 point', () => {
    expect(receiverKeyProblem(RFC.uaPublic)).toBeNull();
    expect(receiverKeyProblem(toBase64Url(Buffer.alloc(64, 1)))).toMatch(/65 bytes/);
    expect(receiverKeyProblem(toBase64Url(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)])))).toMatch(
      /not a point/,
    );
  });
});
