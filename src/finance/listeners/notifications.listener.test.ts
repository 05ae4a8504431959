import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  financeClient,
  newFinanceAccount,
  newFinanceBill,
  newFinanceInvoice,
  type FinanceTestUser,
} from '../../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp({}, { background: { pollIntervalMs: 20, dailyJob: false } });
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

const paymentNotices = async (user: FinanceTestUser) =>
  (await financeClient(t.app, user.accessToken).get('/api/notifications?type=payment_confirmed')).body.data
    .notifications as {
    title: string;
    message: string;
    data: Record<string, string>;
  }[];

/** Waits until every event of the account is dispatched (listeners ran), and checks none failed. */
async function dispatched(accountId: string) {
  const rows = await until(async () => {
    const events = await t.db
      .selectFrom('outbox_events')
      .select(['dispatched_at', 'dispatch_error', 'name'])
      .where('account_id', '=', Number(accountId))
      .execute();
    return events.length > 0 && events.every((e) => e.dispatched_at !== null) && events;
  }, 'dispatch');
  expect(rows.filter((r) => r.dispatch_error !== null)).toEqual([]);
}

describe('payment_confirmed notifications (outbox listener)', () => {
  it('paying a bill notifies the members whose preference allows it, once', async () => {
    const account = await newFinanceAccount(t);
    const admin = account.admin;
    const second = await addFinanceMember(t, account, 'admin');
    const quiet = await addFinanceMember(t, account, 'agent');
    expect(
      (await financeClient(t.app, quiet.accessToken).put('/api/notifications/preferences', { paymentConfirmed: false }))
        .status,
    ).toBe(200);
    const other = await newFinanceAccount(t);

    const bill = await newFinanceBill(t, admin.accessToken, { supplier: 'Power Co', amount: 250.5, currency: 'BRL' });
    expect((await financeClient(t.app, admin.accessToken).post(`/api/bills/${bill.id}/pay`)).status).toBe(200);
    await dispatched(account.accountId);

    for (const user of [admin, second]) {
      const notices = await paymentNotices(user);
      expect(notices).toEqual([
        expect.objectContaining({
          type: 'payment_confirmed',
          title: 'Bill payment confirmed',
          message: 'Bill from Power Co of BRL 250.50 was paid',
          read: false,
          data: { billId: bill.id, eventId: expect.any(String) },
        }),
      ]);
    }
    expect(await paymentNotices(quiet)).toEqual([]);
    expect((await financeClient(t.app, other.admin.accessToken).get('/api/notifications')).body.data.total).toBe(0);
    // Paying again is refused by the bill module and creates nothing more.
    expect((await financeClient(t.app, admin.accessToken).post(`/api/bills/${bill.id}/pay`)).status).toBe(409);
    await dispatched(account.accountId);
    expect(await paymentNotices(admin)).toHaveLength(1);
  });

  it('paying an invoice notifies too', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    const invoice = await newFinanceInvoice(t, account.admin.accessToken, {
      customer: 'Globex',
      amount: 1200,
      status: 'issued',
    });
    expect((await c.post(`/api/invoices/${invoice.id}/pay`)).status).toBe(200);
    await dispatched(account.accountId);
    expect(await paymentNotices(account.admin)).toEqual([
      expect.objectContaining({
        title: 'Invoice payment confirmed',
        message: 'Invoice to Globex of BRL 1200.00 was paid',
        data: { invoiceId: invoice.id, eventId: expect.any(String) },
      }),
    ]);
  });
});
