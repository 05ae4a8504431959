import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRecorder } from '../core/events/outbox.js';
import type { FinanceEvents } from './events.js';
import { enqueueDelivery } from '../core/webhooks/deliveries.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../test/helpers/test-app.js';
import { ensureFinanceSetup } from '../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { background: { pollIntervalMs: 20 } });
});
afterAll(async () => {
  await t.close();
});

async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('finance background work', () => {
  it('is started with the app and dispatches recorded events', async () => {
    expect(t.app.financeBackground).toBeDefined();
    // A payment of a bill that does not exist: the listeners have nothing to do, and nothing fails.
    const emit = eventRecorder<FinanceEvents>();
    await t.db.transaction().execute((trx) =>
      emit(trx, {
        accountId: 1,
        name: 'bill.paid',
        refs: { billId: 999_999 },
        snapshot: { event: 'bill.paid', created_at: '', account_id: '1', data: { id: '999999' } },
      }),
    );
    const row = await until(
      () =>
        t.db
          .selectFrom('outbox_events')
          .selectAll()
          .where('name', '=', 'bill.paid')
          .where('dispatched_at', 'is not', null)
          .executeTakeFirst(),
      'dispatch',
    );
    expect(await t.db.selectFrom('outbox_retries').selectAll().where('event_id', '=', row.id).execute()).toEqual([]);
  });

  it('runs the webhook delivery worker on the finance database (unknown subscribers are cancelled)', async () => {
    const id = await t.db.transaction().execute((trx) =>
      enqueueDelivery(trx, {
        accountId: 1,
        subscriberType: 'nobody',
        subscriberId: 1,
        url: 'http://127.0.0.1:9/',
        eventName: 'x',
        eventId: null,
        payload: {},
      }),
    );
    const row = await until(
      () =>
        t.db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('id', '=', id)
          .where('status', '=', 'cancelled')
          .executeTakeFirst(),
      'cancellation',
    );
    expect(row.last_error).toBe('the subscriber no longer exists');
  });

  it('purges expired reset tokens, refresh tokens and rate-limit buckets on its housekeeping job, keeping live ones', async () => {
    const { admin } = await ensureFinanceSetup(t);
    const userId = Number(admin.id);
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    await t.db
      .insertInto('password_resets')
      .values([
        { user_id: userId, token_hash: 'old', expires_at: now - 2 * day, used_at: null, created_at: now - 2 * day },
        { user_id: userId, token_hash: 'live', expires_at: now + 60_000, used_at: null, created_at: now },
      ])
      .execute();
    await t.db
      .insertInto('rate_limit_buckets')
      .values({ key: 'old', window_start: 0, count: 1, expires_at: now - 1 })
      .execute();
    await t.db
      .updateTable('refresh_tokens')
      .set({ expires_at: now - 2 * day })
      .where('user_id', '=', userId)
      .execute();
    // The housekeeping job is due again (the scheduler's row); the running background picks it up.
    await t.db
      .updateTable('jobs')
      .set({ run_at: 0 })
      .where('name', '=', 'finance.housekeeping')
      .where('status', '=', 'pending')
      .execute();
    await until(
      async () => (await t.db.selectFrom('password_resets').select('token_hash').execute()).length === 1,
      'housekeeping',
    );
    expect((await t.db.selectFrom('password_resets').select('token_hash').execute()).map((r) => r.token_hash)).toEqual([
      'live',
    ]);
    expect(
      await t.db.selectFrom('rate_limit_buckets').select('key').where('key', '=', 'old').executeTakeFirst(),
    ).toBeUndefined();
    expect(await t.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });
});
