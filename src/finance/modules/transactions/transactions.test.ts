import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  financeCall,
  financeClient,
  financeDataSnapshot,
  financeEvents,
  financePatch,
  newFinanceAccount,
  newFinanceTransaction,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
let acme: FinanceTestAccount;
let other: FinanceTestAccount;
beforeAll(async () => {
  t = await buildFinanceTestApp();
  acme = await newFinanceAccount(t);
  other = await newFinanceAccount(t);
});
afterAll(async () => {
  await t.close();
});

const P = '/api/transactions';
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const row = (id: string) =>
  t.db.selectFrom('transactions').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();

describe('POST /api/transactions', () => {
  it('records a transaction with the full shape and transaction.created in the outbox', async () => {
    const res = await financeClient(t.app, acme.admin.accessToken).post(P, {
      kind: 'expense',
      amount: 1234.56,
      date: '2025-02-28',
      category: ' rent ',
      description: 'February rent',
      status: 'pending',
    });
    expect(res.status).toBe(201);
    const data = {
      id: expect.stringMatching(/^\d+$/),
      kind: 'expense',
      amount: 1234.56,
      currency: 'BRL',
      date: '2025-02-28',
      category: 'rent',
      description: 'February rent',
      status: 'pending',
      billId: null,
      createdAt: iso,
      updatedAt: iso,
    };
    expect(res.body).toEqual({ success: true, message: 'Transaction created', data });
    expect(await row(res.body.data.id)).toMatchObject({ amount_cents: 123456, account_id: Number(acme.accountId) });
    const shown = await financeClient(t.app, acme.admin.accessToken).get(`${P}/${res.body.data.id}`);
    expect(shown.body).toEqual({ success: true, data: res.body.data });

    const events = (await financeEvents(t.db, 'transaction.created', acme.accountId)).filter(
      (e) => e.payload.data.id === res.body.data.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      event: 'transaction.created',
      created_at: iso,
      account_id: acme.accountId,
      data: res.body.data,
    });
  });

  it('defaults: currency BRL, status completed, no category or description', async () => {
    const tx = await newFinanceTransaction(t, acme.admin.accessToken, {
      category: undefined,
      description: undefined,
      currency: 'USD',
    });
    expect(tx).toMatchObject({ currency: 'USD', status: 'completed', category: null, description: null });
  });

  it('keeps money exact: 0.1, 0.2, 0.3 and the largest amount round-trip; cents are stored', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    for (const [amount, cents] of [
      [0.1, 10],
      [0.2, 20],
      [0.3, 30],
      [0.07, 7],
      [1234.56, 123456],
      [1.1, 110],
      [999999999999.99, 99999999999999],
    ] as const) {
      const res = await c.post(P, { kind: 'income', amount, date: '2025-01-01' });
      expect(res.status, String(amount)).toBe(201);
      expect(res.body.data.amount).toBe(amount);
      expect(JSON.parse(res.text).data.amount).toBe(amount);
      expect(res.text).toContain(`"amount":${amount}`);
      expect((await row(res.body.data.id)).amount_cents).toBe(cents);
    }
  });

  it('refuses bad input with 422 and the envelope, changing nothing', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const valid = { kind: 'income', amount: 10, date: '2025-01-01' };
    const before = await financeDataSnapshot(t.db);
    const cases: [string, unknown, string][] = [
      ['missing kind', { amount: 10, date: '2025-01-01' }, 'kind'],
      ['missing amount', { kind: 'income', date: '2025-01-01' }, 'amount'],
      ['missing date', { kind: 'income', amount: 10 }, 'date'],
      ['three decimals', { ...valid, amount: 12.345 }, 'amount'],
      ['float noise', { ...valid, amount: 0.1 + 0.2 }, 'amount'],
      ['amount as text', { ...valid, amount: '10' }, 'amount'],
      ['zero', { ...valid, amount: 0 }, 'amount'],
      ['negative', { ...valid, amount: -5 }, 'amount'],
      ['huge', { ...valid, amount: 1e15 }, 'amount'],
      ['impossible day', { ...valid, date: '2025-02-30' }, 'date'],
      ['not a date', { ...valid, date: '30/01/2025' }, 'date'],
      ['date as number', { ...valid, date: 20250101 }, 'date'],
      ['unknown kind', { ...valid, kind: 'gift' }, 'kind'],
      ['unknown status', { ...valid, status: 'done' }, 'status'],
      ['lower-case currency', { ...valid, currency: 'brl' }, 'currency'],
      ['long description', { ...valid, description: 'x'.repeat(2001) }, 'description'],
      ['category as number', { ...valid, category: 5 }, 'category'],
    ];
    for (const [label, body, field] of cases) {
      const res = await c.post(P, body);
      expect(res.status, label).toBe(422);
      expect(res.body, label).toMatchObject({
        success: false,
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        label,
      ).toContain(field);
    }
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('GET /api/transactions', () => {
  it('filters by period, status, kind and category, paginates, and counts the total', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    const a = await newFinanceTransaction(t, token, {
      kind: 'income',
      date: '2025-01-31',
      category: 'sales',
      status: 'completed',
    });
    const b = await newFinanceTransaction(t, token, {
      kind: 'expense',
      date: '2025-02-01',
      category: 'rent',
      status: 'pending',
    });
    const c = await newFinanceTransaction(t, token, {
      kind: 'expense',
      date: '2025-02-28',
      category: 'rent',
      status: 'completed',
    });
    const d = await newFinanceTransaction(t, token, {
      kind: 'income',
      date: '2025-03-01',
      category: 'sales',
      status: 'cancelled',
    });
    await newFinanceTransaction(t, other.admin.accessToken, { date: '2025-02-10' }); // never listed here
    const ids = async (query: string) => {
      const res = await financeClient(t.app, token).get(`${P}${query}`);
      expect(res.status, query).toBe(200);
      return { ids: res.body.data.items.map((x: { id: string }) => x.id), total: res.body.data.total };
    };

    const all = await financeClient(t.app, token).get(P);
    expect(all.body).toEqual({ success: true, data: { items: [d, c, b, a], total: 4, page: 1, limit: 20 } });
    expect(await ids('?from=2025-02-01&to=2025-02-28')).toEqual({ ids: [c.id, b.id], total: 2 });
    expect(await ids('?from=2025-02-02')).toEqual({ ids: [d.id, c.id], total: 2 });
    expect(await ids('?to=2025-01-31')).toEqual({ ids: [a.id], total: 1 });
    expect(await ids('?status=completed')).toEqual({ ids: [c.id, a.id], total: 2 });
    expect(await ids('?kind=expense')).toEqual({ ids: [c.id, b.id], total: 2 });
    expect(await ids('?category=sales&status=cancelled')).toEqual({ ids: [d.id], total: 1 });
    expect(await ids('?limit=3&page=2')).toEqual({ ids: [a.id], total: 4 });
    expect(await ids('?limit=2&page=3')).toEqual({ ids: [], total: 4 });
    const page = await financeClient(t.app, token).get(`${P}?limit=2`);
    expect(page.body.data).toMatchObject({ page: 1, limit: 2, total: 4 });

    for (const q of [
      'limit=0',
      'limit=101',
      'page=0',
      'from=2025-02-30',
      'to=tomorrow',
      'from=2025-03-01&to=2025-02-01',
      'status=done',
      'kind=gift',
    ]) {
      const res = await financeClient(t.app, token).get(`${P}?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.success, q).toBe(false);
    }
  });
});

describe('PUT and PATCH /api/transactions/:id', () => {
  it('changes the fields sent and records transaction.updated once per change, with changed_attributes', async () => {
    const token = acme.admin.accessToken;
    const tx = await newFinanceTransaction(t, token, { status: 'pending', amount: 10 });
    const res = await financePatch(t.app, token, `${P}/${tx.id}`, { status: 'completed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Transaction updated',
      data: { ...tx, status: 'completed', updatedAt: iso },
    });
    const put = await financeClient(t.app, token).put(`${P}/${tx.id}`, {
      amount: 10.5,
      description: null,
      category: 'misc',
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      amount: 10.5,
      description: null,
      category: 'misc',
      status: 'completed',
      kind: tx.kind,
      date: tx.date,
    });

    const events = (await financeEvents(t.db, 'transaction.updated')).filter((e) => e.payload.data.id === tx.id);
    expect(events.map((e) => e.payload.changed_attributes)).toEqual([
      [{ status: { previous_value: 'pending', current_value: 'completed' } }],
      [
        { amount: { previous_value: 10, current_value: 10.5 } },
        { category: { previous_value: 'sales', current_value: 'misc' } },
        { description: { previous_value: 'Sale', current_value: null } },
      ],
    ]);
    expect(events[1].payload).toMatchObject({
      event: 'transaction.updated',
      account_id: acme.accountId,
      data: put.body.data,
    });

    // Sending the current values changes nothing and records nothing.
    const same = await financePatch(t.app, token, `${P}/${tx.id}`, { status: 'completed', amount: 10.5 });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(put.body.data);
    expect((await financeEvents(t.db, 'transaction.updated')).filter((e) => e.payload.data.id === tx.id)).toHaveLength(
      2,
    );
  });

  it('refuses bad input with 422, changing nothing and recording nothing', async () => {
    const token = acme.admin.accessToken;
    const tx = await newFinanceTransaction(t, token);
    const stored = await row(tx.id);
    const before = await financeDataSnapshot(t.db);
    for (const body of [
      {},
      { amount: 12.345 },
      { amount: '5' },
      { date: '2025-02-29' },
      { kind: null },
      { status: 'done' },
      { amount: 1e13 },
      { category: 'x'.repeat(101) },
    ]) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const res = await financeCall(t.app, { method, url: `${P}/${tx.id}`, token, body });
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(422);
        expect(res.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
      }
    }
    expect(await row(tx.id)).toEqual(stored);
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('DELETE /api/transactions/:id', () => {
  it('lets administrators delete; agents may read and write but get 403 on delete', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    const tx = await newFinanceTransaction(t, agent.accessToken);
    expect((await financePatch(t.app, agent.accessToken, `${P}/${tx.id}`, { status: 'cancelled' })).status).toBe(200);
    const refused = await financeClient(t.app, agent.accessToken).delete(`${P}/${tx.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    const res = await financeClient(t.app, account.admin.accessToken).delete(`${P}/${tx.id}`);
    expect(res.body).toEqual({ success: true, data: null, message: 'Transaction deleted' });
    expect((await financeClient(t.app, account.admin.accessToken).get(`${P}/${tx.id}`)).status).toBe(404);
    expect((await financeClient(t.app, account.admin.accessToken).delete(`${P}/${tx.id}`)).status).toBe(404);
  });
});

describe('tenancy and authentication', () => {
  it("answers 404 for another account's transaction on every route, changing nothing", async () => {
    const theirs = await newFinanceTransaction(t, other.admin.accessToken, { status: 'pending' });
    const stored = await row(theirs.id);
    const token = acme.admin.accessToken;
    const url = `${P}/${theirs.id}`;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { status: 'completed' }],
      ['PATCH', { amount: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await financeCall(t.app, { method, url, token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect(await row(theirs.id)).toEqual(stored);
    expect((await financeEvents(t.db, 'transaction.updated')).filter((e) => e.payload.data.id === theirs.id)).toEqual(
      [],
    );
  });

  it('answers 401 without a token, and 422 for a malformed id', async () => {
    for (const [method, url] of [
      ['GET', P],
      ['POST', P],
      ['GET', `${P}/1`],
      ['PUT', `${P}/1`],
      ['PATCH', `${P}/1`],
      ['DELETE', `${P}/1`],
    ] as const) {
      const res = await financeCall(t.app, {
        method,
        url,
        body: method === 'GET' || method === 'DELETE' ? undefined : { amount: 1 },
      });
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    }
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/abc`)).status).toBe(422);
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/99999999`)).status).toBe(404);
  });
});
