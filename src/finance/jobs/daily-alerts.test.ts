import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  countFinanceRows,
  financeClient,
  financeEvents,
  financeServicesOf,
  newFinanceAccount,
  newFinanceBill,
  newFinanceInvoice,
  type FinanceTestUser,
} from '../../../test/helpers/finance-factories.js';
import { addDays, utcDay } from '../calendar.js';
import { DailyAlertsJob } from './daily-alerts.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Listed {
  type: string;
  title: string;
  message: string;
  data: { billId: string } | null;
}

/** The bill ids of the user's notifications of a type (all pages). */
async function billIdsOf(user: FinanceTestUser, type: string): Promise<string[]> {
  const res = await financeClient(t.app, user.accessToken).get(`/api/notifications?type=${type}&limit=100`);
  expect(res.status).toBe(200);
  return (res.body.data.notifications as Listed[]).map((n) => n.data!.billId).sort();
}

const sorted = (...ids: string[]) => [...ids].sort();

/** The job as the background builds it, on this app's database, with its own clock. */
async function jobAt(app: FinanceTestApp, now: number) {
  const { deps, services } = await financeServicesOf(app);
  return new DailyAlertsJob(deps, { notifications: services.notifications, invoices: services.invoices, accountant: services.accountant }, () => now);
}

describe('the daily job, run on demand by an administrator (POST /api/notifications/run-daily-job)', () => {
  it('creates bill_due_soon and bill_overdue once per bill and member, honouring preferences and daysBeforeDue', async () => {
    const account = await newFinanceAccount(t);
    const admin = account.admin;
    const agent = await addFinanceMember(t, account, 'agent');
    const a = financeClient(t.app, admin.accessToken);
    expect((await financeClient(t.app, agent.accessToken).put('/api/notifications/preferences', { daysBeforeDue: 5, billOverdue: false })).status).toBe(200);

    const today = utcDay(Date.now());
    const bill = async (dueDate: string, fields: Record<string, unknown> = {}) => (await newFinanceBill(t, admin.accessToken, { dueDate, ...fields })).id as string;
    const dueToday = await bill(today, { supplier: 'Water, Inc.', description: 'March', amount: 1234.5 });
    const inThree = await bill(addDays(today, 3));
    const inFive = await bill(addDays(today, 5));
    await bill(addDays(today, 6));
    const yesterday = await bill(addDays(today, -1));
    const paid = await bill(addDays(today, -1));
    expect((await a.post(`/api/bills/${paid}/pay`)).status).toBe(200);
    const cancelled = await bill(addDays(today, 1));
    expect((await a.post(`/api/bills/${cancelled}/cancel`)).status).toBe(200);
    // Another account's bills are not this run's business.
    const other = await newFinanceAccount(t);
    await newFinanceBill(t, other.admin.accessToken, { dueDate: addDays(today, -3) });

    const run = await a.post('/api/notifications/run-daily-job');
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      success: true,
      message: 'Daily job run for this account',
      data: { day: today, accountId: account.accountId, billDueSoon: 5, billOverdue: 1, invoicesOverdue: 0, accountantReports: 0 },
    });
    expect(await billIdsOf(admin, 'bill_due_soon')).toEqual(sorted(dueToday, inThree));
    expect(await billIdsOf(agent, 'bill_due_soon')).toEqual(sorted(dueToday, inThree, inFive));
    expect(await billIdsOf(admin, 'bill_overdue')).toEqual([yesterday]);
    expect(await billIdsOf(agent, 'bill_overdue')).toEqual([]);
    expect(await countFinanceRows(t.db, 'notifications')).toBeGreaterThan(0);
    const otherList = await financeClient(t.app, other.admin.accessToken).get('/api/notifications');
    expect(otherList.body.data.total).toBe(0);

    const list = await a.get('/api/notifications?type=bill_due_soon');
    const water = (list.body.data.notifications as (Listed & { data: Record<string, unknown> })[]).find((n) => n.data.billId === dueToday)!;
    expect(water).toMatchObject({
      title: 'Bill due soon',
      message: `Bill Water, Inc. (March) of BRL 1234.50 is due on ${today}`,
      read: false,
      data: { billId: dueToday, supplier: 'Water, Inc.', amount: 1234.5, currency: 'BRL', dueDate: today },
    });
    const overdue = await a.get('/api/notifications?type=bill_overdue');
    expect(overdue.body.data.notifications[0]).toMatchObject({ title: 'Bill overdue', message: expect.stringContaining('is not paid') });

    // Running again (or reading, deleting) creates nothing twice.
    const before = await countFinanceRows(t.db, 'notifications');
    const again = await a.post('/api/notifications/run-daily-job');
    expect(again.body.data).toMatchObject({ billDueSoon: 0, billOverdue: 0, invoicesOverdue: 0 });
    expect(await countFinanceRows(t.db, 'notifications')).toBe(before);
  });

  it('marks issued invoices past due overdue and records invoice.overdue once', async () => {
    const account = await newFinanceAccount(t);
    const a = financeClient(t.app, account.admin.accessToken);
    const today = utcDay(Date.now());
    const late = await newFinanceInvoice(t, account.admin.accessToken, { status: 'issued', dueDate: addDays(today, -2) });
    const draft = await newFinanceInvoice(t, account.admin.accessToken, { dueDate: addDays(today, -2) });
    const notYet = await newFinanceInvoice(t, account.admin.accessToken, { status: 'issued', dueDate: today });

    const run = await a.post('/api/notifications/run-daily-job');
    expect(run.body.data).toMatchObject({ invoicesOverdue: 1 });
    expect((await a.get(`/api/invoices/${late.id}`)).body.data).toMatchObject({ status: 'overdue', overdueAt: expect.any(String) });
    expect((await a.get(`/api/invoices/${draft.id}`)).body.data.status).toBe('draft');
    expect((await a.get(`/api/invoices/${notYet.id}`)).body.data.status).toBe('issued');
    const events = await financeEvents(t.db, 'invoice.overdue', account.accountId);
    expect(events.map((e) => e.payload.data.id)).toEqual([late.id]);

    expect((await a.post('/api/notifications/run-daily-job')).body.data.invoicesOverdue).toBe(0);
    expect(await financeEvents(t.db, 'invoice.overdue', account.accountId)).toHaveLength(1);
  });

  it('is for administrators: an agent gets 403 and nothing happens; no token 401', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    const today = utcDay(Date.now());
    await newFinanceBill(t, account.admin.accessToken, { dueDate: addDays(today, -1) });
    const invoice = await newFinanceInvoice(t, account.admin.accessToken, { status: 'issued', dueDate: addDays(today, -1) });
    const before = await countFinanceRows(t.db, 'notifications');

    const res = await financeClient(t.app, agent.accessToken).post('/api/notifications/run-daily-job');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    expect((await financeClient(t.app).post('/api/notifications/run-daily-job')).status).toBe(401);
    expect(await countFinanceRows(t.db, 'notifications')).toBe(before);
    expect((await financeClient(t.app, agent.accessToken).get(`/api/invoices/${invoice.id}`)).body.data.status).toBe('issued');
  });
});

describe('the daily job with its own clock', () => {
  it('takes today as the UTC calendar day', async () => {
    const account = await newFinanceAccount(t);
    const overdue = await newFinanceBill(t, account.admin.accessToken, { dueDate: '2025-03-10' });
    const soon = await newFinanceBill(t, account.admin.accessToken, { dueDate: '2025-03-14' });
    await newFinanceBill(t, account.admin.accessToken, { dueDate: '2025-03-15' });
    // 23:30 on March 10 in São Paulo (UTC-3) is already March 11 in UTC.
    const job = await jobAt(t, Date.parse('2025-03-10T23:30:00-03:00'));
    const summary = await job.run({ accountId: Number(account.accountId) });
    expect(summary).toMatchObject({ day: '2025-03-11', billDueSoon: 1, billOverdue: 1 });
    expect(await billIdsOf(account.admin, 'bill_overdue')).toEqual([overdue.id]);
    expect(await billIdsOf(account.admin, 'bill_due_soon')).toEqual([soon.id]);
  });

  it('a bill that was due soon and then goes overdue gets each notification once', async () => {
    const account = await newFinanceAccount(t);
    const bill = await newFinanceBill(t, account.admin.accessToken, { dueDate: '2025-06-02' });
    const days = ['2025-05-30', '2025-05-31', '2025-06-01', '2025-06-02', '2025-06-03', '2025-06-04'];
    for (const day of days) await (await jobAt(t, Date.parse(`${day}T08:00:00Z`))).run({ accountId: Number(account.accountId) });
    expect(await billIdsOf(account.admin, 'bill_due_soon')).toEqual([bill.id]);
    expect(await billIdsOf(account.admin, 'bill_overdue')).toEqual([bill.id]);
  });
});

describe('once a day, across instances', () => {
  it('takes over a run whose instance died (claimed, never finished) once the claim is an hour old', async () => {
    const account = await newFinanceAccount(t);
    const bill = await newFinanceBill(t, account.admin.accessToken, { dueDate: '2024-03-01' });
    const day = '2024-03-05';
    const startedAt = Date.parse(`${day}T00:01:00Z`);
    // An instance claimed the day and died before finishing.
    await t.db.insertInto('job_runs').values({ name: 'daily-alerts', day, started_at: startedAt, finished_at: null, summary: null }).execute();

    const soon = startedAt + 30 * 60_000;
    expect(await (await jobAt(t, soon)).runIfDue(soon)).toBeNull(); // it may still be running
    expect(await billIdsOf(account.admin, 'bill_overdue')).toEqual([]);

    const later = startedAt + 61 * 60_000;
    const summary = await (await jobAt(t, later)).runIfDue(later);
    expect(summary).toMatchObject({ day, accountId: null, billOverdue: expect.any(Number) });
    expect(await billIdsOf(account.admin, 'bill_overdue')).toEqual([bill.id]);
    const row = await t.db.selectFrom('job_runs').selectAll().where('day', '=', day).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ started_at: later, finished_at: expect.any(Number) });
    expect(await (await jobAt(t, later + 60_000)).runIfDue(later + 60_000)).toBeNull(); // finished: not again
  });

  it('the job_runs claim lets exactly one of two instances run a day; the background runs it at start', async () => {
    const first = await buildFinanceTestApp();
    try {
      const second = await buildFinanceTestApp({}, { sameDatabaseAs: first });
      try {
        const account = await newFinanceAccount(first);
        const bill = await newFinanceBill(first, account.admin.accessToken, { dueDate: '2025-07-01' });
        const now = Date.parse('2025-07-02T00:00:05Z');
        const results = await Promise.all([(await jobAt(first, now)).runIfDue(now), (await jobAt(second, now)).runIfDue(now)]);
        const ran = results.filter((r) => r !== null);
        expect(ran).toHaveLength(1);
        expect(ran[0]).toMatchObject({ day: '2025-07-02', accountId: null, billOverdue: 1 });
        expect(await (await jobAt(first, now + 3_600_000)).runIfDue(now + 3_600_000)).toBeNull(); // later that day
        const row = await first.db.selectFrom('job_runs').selectAll().where('day', '=', '2025-07-02').executeTakeFirstOrThrow();
        expect(row).toMatchObject({ name: 'daily-alerts', finished_at: expect.any(Number) });
        expect(JSON.parse(row.summary!)).toMatchObject({ billOverdue: 1 });
        const overdue = await first.db.selectFrom('notifications').select('data').where('type', '=', 'bill_overdue').execute();
        expect(overdue.map((n) => JSON.parse(n.data!).billId)).toEqual([bill.id]);

        // A background started on the next day runs that day's job at start.
        const nextDay = Date.parse('2025-07-03T09:00:00Z');
        const third = await buildFinanceTestApp({}, { sameDatabaseAs: first, background: { pollIntervalMs: 20, dailyJob: { clock: () => nextDay } } });
        try {
          const deadline = Date.now() + 10_000;
          let done: { finished_at: number | null } | undefined;
          while (!(done = await first.db.selectFrom('job_runs').select('finished_at').where('day', '=', '2025-07-03').where('finished_at', 'is not', null).executeTakeFirst())) {
            if (Date.now() > deadline) throw new Error('the background did not run the daily job');
            await new Promise((r) => setTimeout(r, 20));
          }
          expect(done.finished_at).not.toBeNull();
          expect(await third.app.financeBackground!.daily!.tick()).toBeNull(); // already done today
        } finally {
          await third.close();
        }
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
