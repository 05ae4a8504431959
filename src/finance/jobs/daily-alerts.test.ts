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
import { JobRunner } from '../../core/jobs/jobs.js';
import { dailyJob } from './daily-schedule.js';
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

/** The scheduler with the daily job as the background defines it, on this app's database, with its own clock (not started). */
async function jobRunnerOf(app: FinanceTestApp, clock: () => number) {
  const { services } = await financeServicesOf(app);
  return new JobRunner({
    db: app.db,
    dialect: app.dialect,
    logger: app.app.log,
    clock,
    definitions: [dailyJob(services.dailyAlerts)],
  });
}

/** The job as the background builds it, on this app's database, with its own clock. */
async function jobAt(app: FinanceTestApp, now: number) {
  const { deps, services } = await financeServicesOf(app);
  return new DailyAlertsJob(
    deps,
    { notifications: services.notifications, invoices: services.invoices, accountant: services.accountant },
    () => now,
  );
}

describe('the daily job, run on demand by an administrator (POST /api/notifications/run-daily-job)', () => {
  it('creates bill_due_soon and bill_overdue once per bill and member, honouring preferences and daysBeforeDue', async () => {
    const account = await newFinanceAccount(t);
    const admin = account.admin;
    const agent = await addFinanceMember(t, account, 'agent');
    const a = financeClient(t.app, admin.accessToken);
    expect(
      (
        await financeClient(t.app, agent.accessToken).put('/api/notifications/preferences', {
          daysBeforeDue: 5,
          billOverdue: false,
        })
      ).status,
    ).toBe(200);

    const today = utcDay(Date.now());
    const bill = async (dueDate: string, fields: Record<string, unknown> = {}) =>
      (await newFinanceBill(t, admin.accessToken, { dueDate, ...fields })).id as string;
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
      data: {
        day: today,
        accountId: account.accountId,
        billDueSoon: 5,
        billOverdue: 1,
        invoicesOverdue: 0,
        accountantReports: 0,
      },
    });
    expect(await billIdsOf(admin, 'bill_due_soon')).toEqual(sorted(dueToday, inThree));
    expect(await billIdsOf(agent, 'bill_due_soon')).toEqual(sorted(dueToday, inThree, inFive));
    expect(await billIdsOf(admin, 'bill_overdue')).toEqual([yesterday]);
    expect(await billIdsOf(agent, 'bill_overdue')).toEqual([]);
    expect(await countFinanceRows(t.db, 'notifications')).toBeGreaterThan(0);
    const otherList = await financeClient(t.app, other.admin.accessToken).get('/api/notifications');
    expect(otherList.body.data.total).toBe(0);

    const list = await a.get('/api/notifications?type=bill_due_soon');
    const water = (list.body.data.notifications as (Listed & { data: Record<string, unknown> })[]).find(
      (n) => n.data.billId === dueToday,
    )!;
    expect(water).toMatchObject({
      title: 'Bill due soon',
      message: `Bill Water, Inc. (March) of BRL 1234.50 is due on ${today}`,
      read: false,
      data: { billId: dueToday, supplier: 'Water, Inc.', amount: 1234.5, currency: 'BRL', dueDate: today },
    });
    const overdue = await a.get('/api/notifications?type=bill_overdue');
    expect(overdue.body.data.notifications[0]).toMatchObject({
      title: 'Bill overdue',
      message: expect.stringContaining('is not paid'),
    });

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
    const late = await newFinanceInvoice(t, account.admin.accessToken, {
      status: 'issued',
      dueDate: addDays(today, -2),
    });
    const draft = await newFinanceInvoice(t, account.admin.accessToken, { dueDate: addDays(today, -2) });
    const notYet = await newFinanceInvoice(t, account.admin.accessToken, { status: 'issued', dueDate: today });

    const run = await a.post('/api/notifications/run-daily-job');
    expect(run.body.data).toMatchObject({ invoicesOverdue: 1 });
    expect((await a.get(`/api/invoices/${late.id}`)).body.data).toMatchObject({
      status: 'overdue',
      overdueAt: expect.any(String),
    });
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
    const invoice = await newFinanceInvoice(t, account.admin.accessToken, {
      status: 'issued',
      dueDate: addDays(today, -1),
    });
    const before = await countFinanceRows(t.db, 'notifications');

    const res = await financeClient(t.app, agent.accessToken).post('/api/notifications/run-daily-job');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    expect((await financeClient(t.app).post('/api/notifications/run-daily-job')).status).toBe(401);
    expect(await countFinanceRows(t.db, 'notifications')).toBe(before);
    expect((await financeClient(t.app, agent.accessToken).get(`/api/invoices/${invoice.id}`)).body.data.status).toBe(
      'issued',
    );
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
    for (const day of days)
      await (await jobAt(t, Date.parse(`${day}T08:00:00Z`))).run({ accountId: Number(account.accountId) });
    expect(await billIdsOf(account.admin, 'bill_due_soon')).toEqual([bill.id]);
    expect(await billIdsOf(account.admin, 'bill_overdue')).toEqual([bill.id]);
  });
});

describe('once a day, on the scheduler', () => {
  it("runs on one of two instances, at start and then at 00:05 UTC each day; a dead instance's run is taken over", async () => {
    const first = await buildFinanceTestApp();
    try {
      const second = await buildFinanceTestApp({}, { sameDatabaseAs: first });
      try {
        const account = await newFinanceAccount(first);
        const bill = await newFinanceBill(first, account.admin.accessToken, { dueDate: '2025-07-01' });
        let now = Date.parse('2025-07-02T09:00:00Z');
        const runners = await Promise.all([first, second].map((app) => jobRunnerOf(app, () => now)));
        for (const r of runners) await r.ensureRecurring();
        // Due at once the first time; one instance runs it, the other finds nothing due.
        const ran = [await runners[0].runDue(), await runners[1].runDue()];
        expect(ran.sort()).toEqual([0, 1]);
        const overdue = await first.db
          .selectFrom('notifications')
          .select('data')
          .where('type', '=', 'bill_overdue')
          .execute();
        expect(overdue.map((n) => JSON.parse(n.data!).billId)).toEqual([bill.id]);
        const row = await first.db
          .selectFrom('jobs')
          .selectAll()
          .where('name', '=', 'finance.daily')
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({
          status: 'pending',
          run_at: Date.parse('2025-07-03T00:05:00Z'),
          recurrence: 'daily 00:05',
        });
        // Later that day: nothing; the next day at 00:05: again (and it creates nothing twice).
        now = Date.parse('2025-07-02T23:00:00Z');
        expect(await runners[1].runDue()).toBe(0);
        now = Date.parse('2025-07-03T00:05:00Z');
        expect(await runners[1].runDue()).toBe(1);
        expect(
          await first.db.selectFrom('notifications').select('id').where('type', '=', 'bill_overdue').execute(),
        ).toHaveLength(1);
        // An instance that claimed the next day's run and died: the other takes it over after the lease.
        now = Date.parse('2025-07-04T00:05:00Z');
        await first.db
          .updateTable('jobs')
          .set({ status: 'running', locked_until: now + 30 * 60_000, attempts: 1 })
          .where('name', '=', 'finance.daily')
          .execute();
        expect(await runners[0].runDue()).toBe(0);
        now += 30 * 60_000 + 1;
        expect(await runners[0].runDue()).toBe(1);
        expect(
          await first.db
            .selectFrom('jobs')
            .select(['status', 'run_at'])
            .where('name', '=', 'finance.daily')
            .executeTakeFirstOrThrow(),
        ).toEqual({
          status: 'pending',
          run_at: Date.parse('2025-07-05T00:05:00Z'),
        });
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
