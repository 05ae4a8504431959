import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import { countFinanceRows, financeClient, newFinanceAccount } from '../../../../test/helpers/finance-factories.js';
import { rateLimitWaitMs } from './rate-limit.service.js';

describe('rate limits shared through the database', () => {
  let a: FinanceTestApp;
  let b: FinanceTestApp;
  beforeAll(async () => {
    a = await buildFinanceTestApp({}, { background: { pollIntervalMs: 20 } });
    b = await buildFinanceTestApp({}, { sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts login attempts made on two instances together', async () => {
    const account = await newFinanceAccount(a);
    for (const t of [a, b, a, b, a, b, a, b, a, b]) {
      expect(
        (await financeClient(t.app).post('/api/auth/login', { email: account.admin.email, password: 'wrong password' }))
          .status,
      ).toBe(401);
    }
    const limited = await financeClient(b.app).post('/api/auth/login', {
      email: account.admin.email,
      password: account.admin.password,
    });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('housekeeping deletes buckets whose window has passed and keeps current ones', async () => {
    await a.db
      .insertInto('rate_limit_buckets')
      .values({ key: 'login:ip:old', window_start: 0, count: 3, expires_at: Date.now() - 1 })
      .execute();
    // The housekeeping job is due again; the running background picks it up.
    await a.db
      .updateTable('jobs')
      .set({ run_at: 0 })
      .where('name', '=', 'finance.housekeeping')
      .where('status', '=', 'pending')
      .execute();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const old = await a.db
        .selectFrom('rate_limit_buckets')
        .select('key')
        .where('key', '=', 'login:ip:old')
        .executeTakeFirst();
      if (!old) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(
      await a.db.selectFrom('rate_limit_buckets').select('key').where('key', '=', 'login:ip:old').executeTakeFirst(),
    ).toBeUndefined();
    expect(await countFinanceRows(a.db, 'rate_limit_buckets')).toBeGreaterThan(0);
  });
});

describe('sliding window estimate', () => {
  const rule = { key: 'k', limit: 10, windowMs: 60_000 };

  it('allows up to the limit and refuses beyond it within one window', () => {
    expect(rateLimitWaitMs(rule, { now: 1_000, windowStart: 0, current: 10, previous: 0 })).toBe(0);
    const wait = rateLimitWaitMs(rule, { now: 1_000, windowStart: 0, current: 11, previous: 0 });
    // Until this window ends, and then until its weight has faded below the limit.
    expect(wait).toBeGreaterThan(59_000);
    expect(wait).toBeLessThanOrEqual(59_000 + 60_000);
  });

  it('still refuses a burst that straddles a window edge', () => {
    // 8 hits at the end of the previous window, 3 right after the edge: ~11 in the last minute.
    expect(rateLimitWaitMs(rule, { now: 60_500, windowStart: 60_000, current: 3, previous: 8 })).toBeGreaterThan(0);
    // Half a window later the previous window counts half: 4 + 3 = 7 allowed.
    expect(rateLimitWaitMs(rule, { now: 90_000, windowStart: 60_000, current: 3, previous: 8 })).toBe(0);
  });

  it('waits at least one second', () => {
    expect(rateLimitWaitMs(rule, { now: 59_999, windowStart: 0, current: 11, previous: 0 })).toBeGreaterThanOrEqual(
      1000,
    );
  });
});
