import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FcmReceiver, WebPushReceiver } from '../../../test/helpers/push-receivers.js';
import { DestinationGuard } from '../webhooks/destination-guard.js';
import { parseServiceAccount } from './push.config.js';
import type { PushMessage, PushOptions } from './push.message.js';
import { createPushSender, PushSender } from './push.sender.js';
import { loadVapidKeys } from './vapid.js';
import { generateKeyPair, toBase64Url } from './web-push.crypto.js';

const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPair();
  return { privateKey: toBase64Url(privateKey), publicKey: toBase64Url(publicKey) };
};
const vapid = keyPair();
const SUBJECT = 'mailto:ops@example.com';
const MESSAGE: PushMessage = {
  title: 'A new message',
  body: 'Hello there',
  url: 'https://chat.example.com/app/1',
  tag: 'thread-7',
  data: { kind: 'test', id: '7' },
};
const OPTIONS: PushOptions = { ttlSeconds: 3600, urgency: 'high', topic: 'thread7' };
const HOUR = 3600_000;

let now = Date.now();
const clock = () => now;
let web: WebPushReceiver;
let fcm: FcmReceiver;
const senders: PushSender[] = [];

function sender(options: { allowed?: string[]; firebase?: boolean; timeoutMs?: number } = {}) {
  const created = new PushSender({
    vapid,
    vapidSubject: SUBJECT,
    firebase: options.firebase === false ? null : parseServiceAccount(JSON.stringify(fcm.account)),
    fcmBaseUrl: fcm.origin,
    guard: new DestinationGuard(options.allowed ?? ['127.0.0.1']),
    timeoutMs: options.timeoutMs,
    clock,
  });
  senders.push(created);
  return created;
}

beforeAll(async () => {
  web = await new WebPushReceiver().start();
  fcm = await new FcmReceiver().start();
  web.clock = clock;
  fcm.clock = clock;
});
afterAll(async () => {
  await web.stop();
  await fcm.stop();
});
beforeEach(() => {
  now = Date.now();
  web.received.length = 0;
  web.rejected.length = 0;
  web.script = [];
  web.hang = false;
  fcm.received.length = 0;
  fcm.rejected.length = 0;
  fcm.tokenRequests.length = 0;
  fcm.script = [];
  fcm.tokenScript = [];
  fcm.tokenLifetime = 3600;
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.close()));
});

describe('Web Push', () => {
  it('sends a message the push service accepts (VAPID verified) and the browser decrypts', async () => {
    const push = sender();
    const subscription = web.subscribe(push.vapidPublicKey);
    expect(await push.send(subscription, MESSAGE, OPTIONS)).toEqual({ result: 'delivered', status: 201 });
    expect(web.rejected).toEqual([]);
    const [received] = web.received;
    expect(received.json).toEqual(MESSAGE);
    expect(received.headers).toMatchObject({ ttl: '3600', urgency: 'high', topic: 'thread7' });
    expect(received.claims).toMatchObject({ aud: web.origin, sub: SUBJECT });
    expect(received.claims.exp! - Math.floor(now / 1000)).toBeLessThanOrEqual(24 * 3600);
  });

  it('signs one JWT per push service origin and signs again before it expires', async () => {
    const push = sender();
    const subscription = web.subscribe(push.vapidPublicKey);
    await push.send(subscription, MESSAGE, OPTIONS);
    await push.send(web.subscribe(push.vapidPublicKey), MESSAGE, OPTIONS);
    now += 11 * HOUR + 1000;
    await push.send(subscription, MESSAGE, OPTIONS);
    expect(web.rejected).toEqual([]);
    const [first, second, later] = web.received.map((r) => r.headers.authorization);
    expect(second).toBe(first);
    expect(later).not.toBe(first);
  });

  it('is refused by the push service when the subscription was made with another key', async () => {
    const push = sender();
    const outcome = await push.send(web.subscribe(keyPair().publicKey), MESSAGE, OPTIONS);
    expect(outcome).toMatchObject({ result: 'failed', status: 403 });
    expect(web.received).toEqual([]);
  });

  it('reads the answer: 404 and 410 gone, 429 and 5xx retried after Retry-After, other 4xx failed', async () => {
    const push = sender();
    const subscription = web.subscribe(push.vapidPublicKey);
    const retryAt = new Date(now + 90_000).toUTCString();
    web.script = [
      { status: 410 },
      { status: 404 },
      { status: 429, retryAfter: '120' },
      { status: 503, retryAfter: retryAt },
      { status: 502 },
      { status: 400, body: 'bad request' },
    ];
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await push.send(subscription, MESSAGE, OPTIONS));
    expect(outcomes).toMatchObject([
      { result: 'gone', status: 410 },
      { result: 'gone', status: 404 },
      { result: 'retry', status: 429, retryAfterMs: 120_000 },
      { result: 'retry', status: 503 },
      { result: 'retry', status: 502 },
      { result: 'failed', status: 400, error: 'push service answered 400: bad request' },
    ]);
    const fromDate = (outcomes[3] as { retryAfterMs: number }).retryAfterMs;
    expect(fromDate).toBeGreaterThan(88_000);
    expect(fromDate).toBeLessThanOrEqual(90_000);
    expect(outcomes[4]).not.toHaveProperty('retryAfterMs');
  });

  it('holds endpoints to the outbound-address policy, and retries a service that does not answer', async () => {
    const strict = sender({ allowed: [] });
    const refused = await strict.send(web.subscribe(strict.vapidPublicKey), MESSAGE, OPTIONS);
    expect(refused).toMatchObject({
      result: 'failed',
      status: null,
      error: 'destination 127.0.0.1 is not a public address',
    });
    const local = await strict.send(
      { ...web.subscribe(strict.vapidPublicKey), endpoint: `http://localhost:${new URL(web.origin).port}/push/x` },
      MESSAGE,
      OPTIONS,
    );
    expect(local).toMatchObject({ result: 'failed', error: 'destination localhost is not a public address' });
    expect(web.received).toEqual([]);

    web.hang = true;
    const slow = sender({ timeoutMs: 200 });
    expect(await slow.send(web.subscribe(slow.vapidPublicKey), MESSAGE, OPTIONS)).toEqual({
      result: 'retry',
      status: null,
      error: 'no answer within 0.2 s',
    });
  });
});

describe('createPushSender', () => {
  it("builds the service's sender from configuration, with the VAPID pair kept in DATA_DIR", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-push-'));
    try {
      const settings = { vapid: null, vapidSubject: SUBJECT, firebase: null, fcmBaseUrl: fcm.origin };
      const push = createPushSender(settings, dataDir, ['127.0.0.1']);
      senders.push(push);
      expect(push.vapidPublicKey).toBe(loadVapidKeys(dataDir, null).publicKey);
      expect(push.fcmEnabled).toBe(false);
      expect(await push.send(web.subscribe(push.vapidPublicKey), MESSAGE, OPTIONS)).toMatchObject({
        result: 'delivered',
      });
      const strict = createPushSender({ ...settings, vapid }, dataDir, []);
      senders.push(strict);
      expect(strict.vapidPublicKey).toBe(vapid.publicKey);
      expect(await strict.send(web.subscribe(vapid.publicKey), MESSAGE, OPTIONS)).toMatchObject({ result: 'failed' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('FCM HTTP v1', () => {
  it('gets an access token with the signed assertion, keeps it, and sends the message', async () => {
    const push = sender();
    expect(push.fcmEnabled).toBe(true);
    expect(await push.send({ type: 'fcm', token: 'device-1' }, MESSAGE, OPTIONS)).toEqual({
      result: 'delivered',
      status: 200,
    });
    await push.send({ type: 'fcm', token: 'device-2' }, MESSAGE, { ttlSeconds: 60, urgency: 'normal' });
    expect(fcm.rejected).toEqual([]);
    expect(fcm.tokenRequests).toHaveLength(1);
    expect(fcm.tokenRequests[0]).toMatchObject({ iss: fcm.account.client_email, aud: fcm.account.token_uri });
    expect(fcm.received[0]).toEqual({
      project: 'ponte-test',
      message: {
        token: 'device-1',
        notification: { title: MESSAGE.title, body: MESSAGE.body },
        data: { kind: 'test', id: '7', url: MESSAGE.url, tag: 'thread-7' },
        android: { ttl: '3600s', priority: 'HIGH', notification: { tag: 'thread-7' } },
        apns: {
          headers: {
            'apns-expiration': String(Math.floor(now / 1000) + 3600),
            'apns-priority': '10',
            'apns-collapse-id': 'thread-7',
          },
        },
      },
    });
    expect(fcm.received[1].message).toMatchObject({ token: 'device-2', android: { ttl: '60s', priority: 'NORMAL' } });
  });

  it('asks for a new token shortly before the old one expires, and after a 401', async () => {
    const push = sender();
    const device = { type: 'fcm' as const, token: 'device-1' };
    await push.send(device, MESSAGE, OPTIONS);
    now += 54 * 60_000;
    await push.send(device, MESSAGE, OPTIONS);
    expect(fcm.tokenRequests).toHaveLength(1);
    now += 60_001;
    await push.send(device, MESSAGE, OPTIONS);
    expect(fcm.tokenRequests).toHaveLength(2);

    fcm.revokeTokens();
    expect(await push.send(device, MESSAGE, OPTIONS)).toMatchObject({ result: 'retry', status: 401 });
    expect(await push.send(device, MESSAGE, OPTIONS)).toMatchObject({ result: 'delivered' });
    expect(fcm.tokenRequests).toHaveLength(3);
    expect(fcm.rejected).toEqual(['bearer']);
  });

  it('reports an unregistered token gone, a refused grant failed, and an unavailable token endpoint retried', async () => {
    const push = sender();
    const device = { type: 'fcm' as const, token: 'device-1' };
    fcm.tokenScript = [{ status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'bad key' }) }];
    expect(await push.send(device, MESSAGE, OPTIONS)).toEqual({
      result: 'failed',
      status: 400,
      error: 'access token refused: 400: invalid_grant: bad key',
    });
    fcm.tokenScript = [{ status: 503, retryAfter: '30' }];
    expect(await push.send(device, MESSAGE, OPTIONS)).toMatchObject({
      result: 'retry',
      status: 503,
      retryAfterMs: 30_000,
    });
    fcm.script = [
      {
        status: 404,
        body: JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'Requested entity was not found.' } }),
      },
    ];
    expect(await push.send(device, MESSAGE, OPTIONS)).toEqual({
      result: 'gone',
      status: 404,
      error: 'FCM answered 404: NOT_FOUND: Requested entity was not found.',
    });
  });

  it('retries when the token endpoint cannot be reached, and fails when the policy refuses it', async () => {
    const unreachable = new PushSender({
      vapid,
      vapidSubject: SUBJECT,
      firebase: parseServiceAccount(JSON.stringify({ ...fcm.account, token_uri: 'http://127.0.0.1:1/token' })),
      fcmBaseUrl: fcm.origin,
      guard: new DestinationGuard(['127.0.0.1']),
    });
    senders.push(unreachable);
    const device = { type: 'fcm' as const, token: 'device-1' };
    expect(await unreachable.send(device, MESSAGE, OPTIONS)).toMatchObject({
      result: 'retry',
      error: expect.stringMatching(/^access token request failed: ECONNREFUSED/),
    });
    expect(await sender({ allowed: [] }).send(device, MESSAGE, OPTIONS)).toEqual({
      result: 'failed',
      status: null,
      error: 'access token request failed: destination 127.0.0.1 is not a public address',
    });
    expect(fcm.tokenRequests).toEqual([]);
  });

  it('fails FCM subscriptions when no service account is configured', async () => {
    const push = sender({ firebase: false });
    expect(push.fcmEnabled).toBe(false);
    expect(await push.send({ type: 'fcm', token: 'device-1' }, MESSAGE, OPTIONS)).toMatchObject({
      result: 'failed',
      error: 'FCM is not configured (no Firebase service account)',
    });
    expect(fcm.received).toEqual([]);
  });
});
