import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FcmReceiver, WebPushReceiver } from '../../../test/helpers/push-receivers.js';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { Metrics } from '../http/metrics.js';
import { createJobsTable, type JobsDatabase } from '../jobs/jobs.migration.js';
import { JobRunner } from '../jobs/jobs.js';
import { DestinationGuard } from '../webhooks/destination-guard.js';
import { parseServiceAccount } from './push.config.js';
import { enqueuePush, PUSH_JOB, pushDeliveryJob } from './push.jobs.js';
import type { PushSubscription } from './push.message.js';
import { pushDeliveriesMigration } from './push.migration.js';
import { PushSender } from './push.sender.js';
import { generateKeyPair, toBase64Url } from './web-push.crypto.js';

const logger = pino({ level: 'silent' });
const S = 1000;
const MESSAGE = { title: 'Assigned to you', body: 'A conversation waits', data: { id: '42' } };

let database: TestDatabase<JobsDatabase>;
let web: WebPushReceiver;
let fcm: FcmReceiver;
let sender: PushSender;
let now = Date.now();
const clock = () => now;
/** The owning module's subscriptions, by target; `gone` removes one as the module would. */
const subscriptions = new Map<string, PushSubscription>();
const goneReports: { target: string; status: number }[] = [];

function runner(options: { timeoutMs?: number } = {}) {
  const push =
    options.timeoutMs === undefined ? sender : new PushSender({ ...senderOptions(), timeoutMs: options.timeoutMs });
  return new JobRunner({
    db: database.db,
    dialect: database.dialect,
    logger,
    clock,
    definitions: [
      pushDeliveryJob({
        sender: push,
        retryDelaysMs: [10 * S, 60 * S],
        subscriptionOf: async (target) => subscriptions.get(target) ?? null,
        gone: async (target, reason) => {
          goneReports.push({ target, status: reason.status });
          subscriptions.delete(target);
        },
      }),
    ],
  });
}

const vapid = (() => {
  const { privateKey, publicKey } = generateKeyPair();
  return { privateKey: toBase64Url(privateKey), publicKey: toBase64Url(publicKey) };
})();
const senderOptions = () => ({
  vapid,
  vapidSubject: 'https://chat.example.com',
  firebase: parseServiceAccount(JSON.stringify(fcm.account)),
  fcmBaseUrl: fcm.origin,
  guard: new DestinationGuard(['127.0.0.1']),
  clock,
});

const jobs = () => database.db.selectFrom('jobs').selectAll().where('name', '=', PUSH_JOB).orderBy('id').execute();

beforeAll(async () => {
  database = await openTestDatabase<JobsDatabase>('push');
  await createJobsTable(database.db, database.dialect);
  await pushDeliveriesMigration.up(database.db, database.dialect);
  web = await new WebPushReceiver().start();
  fcm = await new FcmReceiver().start();
  web.clock = clock;
  fcm.clock = clock;
  sender = new PushSender(senderOptions());
});
afterAll(async () => {
  await sender.close();
  await web.stop();
  await fcm.stop();
  await database.close();
});
beforeEach(async () => {
  await database.db.deleteFrom('jobs').execute();
  now = Date.now();
  subscriptions.clear();
  goneReports.length = 0;
  web.received.length = 0;
  web.rejected.length = 0;
  web.script = [];
  web.hang = false;
  fcm.received.length = 0;
  fcm.script = [];
});

describe('push delivery jobs', () => {
  it('sends a push queued in a committed transaction once, and none whose transaction rolled back', async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    subscriptions.set('sub:2', { type: 'fcm', token: 'device-2' });
    await database.db.transaction().execute(async (trx) => {
      await enqueuePush(trx, { target: 'sub:1', message: MESSAGE, urgency: 'high' }, now);
      await enqueuePush(trx, { target: 'sub:2', message: MESSAGE }, now);
    });
    await database.db
      .transaction()
      .execute(async (trx) => {
        await enqueuePush(trx, { target: 'sub:1', message: { ...MESSAGE, title: 'never' } }, now);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const run = runner();
    expect(await run.runDue()).toBe(2);
    expect(await run.runDue()).toBe(0);
    expect(web.rejected).toEqual([]);
    expect(web.received.map((r) => r.json)).toEqual([MESSAGE]);
    expect(web.received[0].headers).toMatchObject({ urgency: 'high', ttl: String(24 * 3600) });
    expect(fcm.received.map((r) => r.message.token)).toEqual(['device-2']);
    expect(await jobs()).toMatchObject([
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
    ]);
  });

  it("retries a 503 no sooner than its Retry-After, with the message's remaining TTL", async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE, ttlSeconds: 3600 }, now);
    const start = now;
    web.script = [{ status: 503, retryAfter: '120' }];
    const run = runner();
    await run.runDue();
    expect(await jobs()).toMatchObject([{ status: 'pending', attempts: 1, run_at: start + 120 * S }]);
    expect((await jobs())[0].last_error).toMatch(/^push service answered 503/);
    now = start + 119 * S;
    expect(await run.runDue()).toBe(0);
    now = start + 120 * S;
    expect(await run.runDue()).toBe(1);
    expect(await jobs()).toMatchObject([{ status: 'done', attempts: 2 }]);
    expect(web.received.map((r) => r.headers.ttl)).toEqual(['3600', String(3600 - 120)]);
  });

  it('retries a push service that does not answer on the growing delays', async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    web.hang = true;
    const start = now;
    await runner({ timeoutMs: 200 }).runDue();
    expect(await jobs()).toMatchObject([
      { status: 'pending', attempts: 1, run_at: start + 10 * S, last_error: 'no answer within 0.2 s' },
    ]);
    web.hang = false;
    now = start + 10 * S;
    await runner().runDue();
    expect(await jobs()).toMatchObject([{ status: 'done', attempts: 2 }]);
  });

  it("reports a 410 to the subscription's owner, and sends nothing to a subscription that is gone", async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    web.script = [{ status: 410 }];
    const run = runner();
    await run.runDue();
    expect(goneReports).toEqual([{ target: 'sub:1', status: 410 }]);
    expect(subscriptions.has('sub:1')).toBe(false);
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    expect(await run.runDue()).toBe(1);
    expect(web.received).toHaveLength(1);
    expect(await jobs()).toMatchObject([
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
    ]);
  });

  it('fails without retry on another 4xx, and once the message has expired', async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    web.script = [{ status: 413 }];
    const run = runner();
    await run.runDue();
    expect(await jobs()).toMatchObject([{ status: 'failed', attempts: 1, last_error: 'push service answered 413' }]);

    await database.db.deleteFrom('jobs').execute();
    const start = now;
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE, ttlSeconds: 30 }, now);
    web.script = [{ status: 500 }];
    await run.runDue();
    expect(await jobs()).toMatchObject([{ status: 'pending', run_at: start + 10 * S }]);
    // Asked to wait past the expiry: no later attempt would be worth making.
    web.script = [{ status: 429, retryAfter: '60' }];
    now = start + 10 * S;
    await run.runDue();
    expect(await jobs()).toMatchObject([
      {
        status: 'failed',
        attempts: 2,
        last_error: "push service answered 429 (asked to wait past the message's expiry)",
      },
    ]);

    await database.db.deleteFrom('jobs').execute();
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE, ttlSeconds: 5 }, now);
    now += 5 * S;
    await run.runDue();
    expect(await jobs()).toMatchObject([{ status: 'failed', last_error: 'expired before it could be delivered' }]);
    // 413, 500 and 429 reached the push service; the expired message did not.
    expect(web.received).toHaveLength(3);
  });

  it('counts push deliveries by status on /metrics', async () => {
    subscriptions.set('sub:1', web.subscribe(sender.vapidPublicKey));
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now);
    web.script = [{ status: 201 }, { status: 400 }];
    await runner().runDue();
    await enqueuePush(database.db, { target: 'sub:1', message: MESSAGE }, now + 60 * S);
    const metrics = new Metrics();
    metrics.addSource('chat', database.db);
    const { body } = await metrics.render();
    for (const status of ['done', 'failed', 'pending'])
      expect(body).toContain(`ponte_push_deliveries{service="chat",status="${status}"} 1`);
  });
});

describe('enqueuePush', () => {
  it('shortens a body too long for one push, and refuses a topic push services would refuse', async () => {
    await enqueuePush(database.db, { target: 't', message: { title: 'Long', body: 'é'.repeat(5000) } }, now);
    const [job] = await jobs();
    const body: string = JSON.parse(job.payload).message.body;
    expect(body.endsWith('…')).toBe(true);
    expect(body.length).toBeGreaterThan(1000);
    await expect(
      enqueuePush(database.db, { target: 't', message: MESSAGE, topic: 'not a topic' }, now),
    ).rejects.toThrow(/topic/);
  });
});
