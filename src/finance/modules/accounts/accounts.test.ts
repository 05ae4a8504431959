import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  financeClient,
  financePatch,
  financeServicesOf,
  newFinanceAccount,
  newFinanceBill,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';
import { DailyAlertsJob } from '../../jobs/daily-alerts.js';

let t: FinanceTestApp;
beforeAll(async () => {
  // The background dispatches outbox events (payment notices); the daily job runs only when called.
  t = await buildFinanceTestApp({}, { background: { pollIntervalMs: 20, dailyJob: false } });
});
afterAll(async () => {
  await t.close();
});

const path = (account: FinanceTestAccount) => `/api/accounts/${account.accountId}`;
const patchAs = (token: string | undefined, url: string, body: unknown) => financePatch(t.app, token, url, body);
const localeOf = async (account: FinanceTestAccount) =>
  (
    await t.db
      .selectFrom('accounts')
      .select('locale')
      .where('id', '=', Number(account.accountId))
      .executeTakeFirstOrThrow()
  ).locale;

describe('the account and its language (GET/PATCH /api/accounts/:accountId)', () => {
  it('shows the current account, English by default; its administrator sets pt-BR and back', async () => {
    const account = await newFinanceAccount(t, { name: 'Padaria' });
    const token = account.admin.accessToken;
    const c = financeClient(t.app, token);
    const shown = await c.get(path(account));
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      success: true,
      data: {
        id: account.accountId,
        name: 'Padaria',
        locale: 'en',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });

    const changed = await patchAs(token, path(account), { locale: 'pt-BR' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: account.accountId, locale: 'pt-BR' });
    expect(await localeOf(account)).toBe('pt-BR');
    expect((await c.get(path(account))).body.data.locale).toBe('pt-BR');
    // An agent reads it too.
    const agent = await addFinanceMember(t, account, 'agent');
    expect((await financeClient(t.app, agent.accessToken).get(path(account))).body.data.locale).toBe('pt-BR');

    expect((await patchAs(token, path(account), { locale: 'en' })).body.data.locale).toBe('en');
    expect(await localeOf(account)).toBe('en');
  });

  it('refuses another language with 422 and changes nothing', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    await patchAs(token, path(account), { locale: 'pt-BR' });
    for (const locale of ['fr', 'pt_BR', 'PT-BR', '', 7, null]) {
      const res = await patchAs(token, path(account), { locale });
      expect(res.status, JSON.stringify(locale)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
    }
    expect(await localeOf(account)).toBe('pt-BR');
    expect((await patchAs(token, `/api/accounts/abc`, { locale: 'en' })).status).toBe(422);
    expect(await localeOf(account)).toBe('pt-BR');
  });

  it("answers 404 to another account's id, 403 to an agent's change and 401 without a token", async () => {
    const mine = await newFinanceAccount(t);
    const theirs = await newFinanceAccount(t);
    const token = mine.admin.accessToken;
    const c = financeClient(t.app, token);
    for (const res of [await c.get(path(theirs)), await patchAs(token, path(theirs), { locale: 'pt-BR' })]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await patchAs(token, '/api/accounts/2147483647', { locale: 'pt-BR' })).status).toBe(404);
    expect(await localeOf(theirs)).toBe('en');

    const agent = await addFinanceMember(t, mine, 'agent');
    const refused = await patchAs(agent.accessToken, path(mine), { locale: 'pt-BR' });
    expect(refused.status).toBe(403);
    expect(await localeOf(mine)).toBe('en');
    expect((await patchAs(undefined, path(mine), { locale: 'pt-BR' })).status).toBe(401);
  });
});

describe("notifications in the account's language", () => {
  /** The daily job as the background builds it, with its own clock. */
  async function dailyJobAt(now: number) {
    const { deps, services } = await financeServicesOf(t);
    return new DailyAlertsJob(
      deps,
      { notifications: services.notifications, invoices: services.invoices, accountant: services.accountant },
      () => now,
    );
  }

  const billNotices = (account: FinanceTestAccount) =>
    t.db
      .selectFrom('notifications')
      .select(['type', 'title', 'message'])
      .where('account_id', '=', Number(account.accountId))
      .where('type', 'in', ['bill_due_soon', 'bill_overdue'])
      .orderBy('type')
      .execute();

  it('the daily job writes bill alerts in Portuguese for a pt-BR account, in English for the others', async () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    const job = await dailyJobAt(now);
    const seed = async (account: FinanceTestAccount) => {
      const token = account.admin.accessToken;
      await newFinanceBill(t, token, {
        supplier: 'Luz SA',
        description: 'Março',
        amount: 1234.56,
        dueDate: '2025-03-12',
      });
      await newFinanceBill(t, token, { supplier: 'Água SA', amount: 80, dueDate: '2025-03-01' });
    };
    const pt = await newFinanceAccount(t);
    expect((await patchAs(pt.admin.accessToken, path(pt), { locale: 'pt-BR' })).status).toBe(200);
    const en = await newFinanceAccount(t);
    await seed(pt);
    await seed(en);

    for (const account of [pt, en]) await job.run({ accountId: Number(account.accountId) });

    expect(await billNotices(pt)).toEqual([
      {
        type: 'bill_due_soon',
        title: 'Conta a vencer',
        message: 'A conta Luz SA (Março) de R$\u00a01.234,56 vence em 12/03/2025',
      },
      {
        type: 'bill_overdue',
        title: 'Conta vencida',
        message: 'A conta Água SA de R$\u00a080,00 venceu em 01/03/2025 e não foi paga',
      },
    ]);
    expect(await billNotices(en)).toEqual([
      {
        type: 'bill_due_soon',
        title: 'Bill due soon',
        message: 'Bill Luz SA (Março) of BRL 1234.56 is due on 2025-03-12',
      },
      {
        type: 'bill_overdue',
        title: 'Bill overdue',
        message: 'Bill Água SA of BRL 80.00 was due on 2025-03-01 and is not paid',
      },
    ]);

    // Stored as written: changing the language later does not rewrite them.
    await patchAs(pt.admin.accessToken, path(pt), { locale: 'en' });
    const listed = await financeClient(t.app, pt.admin.accessToken).get('/api/notifications?type=bill_overdue');
    expect(listed.body.data.notifications.map((n: { title: string }) => n.title)).toEqual(['Conta vencida']);
  });

  it('a confirmed payment is announced in the account language', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    const c = financeClient(t.app, token);
    await patchAs(token, path(account), { locale: 'pt-BR' });
    const bill = await newFinanceBill(t, account.admin.accessToken, { supplier: 'Luz SA', amount: 1234.56 });
    expect((await c.post(`/api/bills/${bill.id}/pay`)).status).toBe(200);
    // The notice is written by the outbox listener after commit: poll for it.
    const deadline = Date.now() + 10_000;
    let notices: { title: string; message: string }[] = [];
    while (Date.now() < deadline) {
      notices = (await c.get('/api/notifications?type=payment_confirmed')).body.data.notifications;
      if (notices.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(notices.map((n) => [n.title, n.message])).toEqual([
      ['Pagamento de conta confirmado', 'A conta de Luz SA no valor de R$\u00a01.234,56 foi paga'],
    ]);
  });
});
