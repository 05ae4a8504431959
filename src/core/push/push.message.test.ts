import { describe, expect, it } from 'vitest';
import { DestinationGuard } from '../webhooks/destination-guard.js';
import { render } from '../i18n/catalogue.js';
import {
  fitMessage,
  retryAfterMs,
  subscriptionProblems,
  webPushPayload,
  type SubscriptionProblem,
} from './push.message.js';
import { generateKeyPair, MAX_PUSH_PLAINTEXT, toBase64Url } from './web-push.crypto.js';

const p256dh = toBase64Url(generateKeyPair().publicKey);
const auth = toBase64Url(Buffer.alloc(16, 7));

/** The problems as the English of their catalogue texts. */
const inEnglish = (problems: SubscriptionProblem[]) =>
  problems.map((p) => ({ field: p.field, message: render(p.message, 'en') }));

describe('subscriptionProblems', () => {
  const guard = new DestinationGuard();

  it('accepts a browser subscription to a public push service and a device token', () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc:def';
    expect(subscriptionProblems({ type: 'webpush', endpoint, p256dh, auth }, guard)).toEqual([]);
    expect(subscriptionProblems({ type: 'fcm', token: 'dQw4w9WgXcQ:APA91bH_x-y.z' }, guard)).toEqual([]);
  });

  it('names each field that is wrong: a private endpoint, a key off the curve, a short secret', () => {
    const problems = inEnglish(
      subscriptionProblems(
        {
          type: 'webpush',
          endpoint: 'http://169.254.169.254/latest',
          p256dh: toBase64Url(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)])),
          auth: toBase64Url(Buffer.alloc(8)),
        },
        guard,
      ),
    );
    expect(problems).toEqual([
      { field: 'endpoint', message: 'destination 169.254.169.254 is not a public address' },
      { field: 'p256dh', message: 'is not a point on the P-256 curve' },
      { field: 'auth', message: 'must be a 16-byte secret, base64url' },
    ]);
    expect(
      inEnglish(subscriptionProblems({ type: 'webpush', endpoint: 'ftp://x.example', p256dh, auth }, guard)),
    ).toEqual([{ field: 'endpoint', message: 'only http and https URLs are allowed' }]);
    expect(inEnglish(subscriptionProblems({ type: 'fcm', token: 'has spaces in it' }, guard))).toEqual([
      { field: 'token', message: 'must be an FCM registration token' },
    ]);
  });
});

describe('fitMessage', () => {
  it('leaves a message that fits alone, and cuts a long body at a character, marked', () => {
    const short = { title: 'Hi', body: 'short' };
    expect(fitMessage(short)).toBe(short);
    const long = { title: 'Hi', body: '😀'.repeat(2000), data: { id: '1' } };
    const fitted = fitMessage(long);
    const size = webPushPayload(fitted).length;
    expect(size).toBeLessThanOrEqual(MAX_PUSH_PLAINTEXT);
    // One more character would not fit; no emoji is split in half.
    expect(size + 4).toBeGreaterThan(MAX_PUSH_PLAINTEXT);
    expect(fitted.body).toMatch(/^(😀)+…$/u);
    expect(() => fitMessage({ title: 'x'.repeat(5000), body: '' })).toThrow(/title, url, tag and data/);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
