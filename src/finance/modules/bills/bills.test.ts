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
  newFinanceBill,
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

const P = '/api/bills';
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const row = (id: string) => t.db.selectFrom('bills').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
const paidEvents = async (id: string) =>
  (await financeEvents(t.db, 'bill.paid')).filter((e) => e.payload.data.id === id);
/** The expense transactions that record a bill's payment (the table, all accounts). */
const expensesOf = (id: string) =>
  t.db.selectFrom('transactions').selectAll().where('bill_id', '=', Number(id)).execute();
const transactionEvents = async (name: string, transactionId: string) =>
  (await financeEvents(t.db, name)).filter((e) => e.payload.data.id === transactionId);

describe('POST /api/bills', () => {
  it('creates an open bill with the full shape', async () => {
    const res = await financeClient(t.app, acme.admin.accessToken).post(P, {
      supplier: ' Power Co ',
      description: 'March power',
      category: 'utilities',
      amount: 0.3,
      currency: 'EUR',
      dueDate: '2024-02-29',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Bill created',
      data: {
        id: expect.stringMatching(/^\d+$/),
        supplier: 'Power Co',
        description: 'March power',
        category: 'utilities',
        amount: 0.3,
        currency: 'EUR',
        dueDate: '2024-02-29',
        status: 'open',
        paidAt: null,
        createdAt: iso,
        updatedAt: iso,
      },
    });
    expect((await row(res.body.data.id)).amount_cents).toBe(30);
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${res.body.data.id}`)).body).toEqual({
      success: true,
      data: res.body.data,
    });
    const minimal = await newFinanceBill(t, acme.admin.accessToken, { amount: 1234.56 });
    expect(minimal).toMatchObject({
      description: null,
      category: null,
      currency: 'BRL',
      amount: 1234.56,
      status: 'open',
    });
  });

  it('refuses bad input with 422 and the envelope, changing nothing', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const valid = { supplier: 'S', amount: 10, dueDate: '2025-01-01' };
    const before = await financeDataSnapshot(t.db);
    const cases: [unknown, string][] = [
      [{ amount: 10, dueDate: '2025-01-01' }, 'supplier'],
      [{ ...valid, supplier: '   ' }, 'supplier'],
      [{ ...valid, supplier: 42 }, 'supplier'],
      [{ ...valid, supplier: 'x'.repeat(201) }, 'supplier'],
      [{ supplier: 'S', dueDate: '2025-01-01' }, 'amount'],
      [{ ...valid, amount: 12.345 }, 'amount'],
      [{ ...valid, amount: 1e20 }, 'amount'],
      [{ ...valid, amount: '10.00' }, 'amount'],
      [{ ...valid, dueDate: '2025-02-30' }, 'dueDate'],
      [{ ...valid, dueDate: '2025-13-01' }, 'dueDate'],
      [{ supplier: 'S', amount: 10 }, 'dueDate'],
      [{ ...valid, currency: 'REAL' }, 'currency'],
    ];
    for (const [body, field] of cases) {
      const res = await c.post(P, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({
        success: false,
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('GET /api/bills', () => {
  it('filters by due-date period and status, earliest due first, with totals', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    const a = await newFinanceBill(t, token, { dueDate: '2025-03-31' });
    const b = await newFinanceBill(t, token, { dueDate: '2025-03-01' });
    const c = await newFinanceBill(t, token, { dueDate: '2025-04-01' });
    const d = await newFinanceBill(t, token, { dueDate: '2025-02-28' });
    await financeClient(t.app, token).post(`${P}/${a.id}/pay`);
    await newFinanceBill(t, other.admin.accessToken, { dueDate: '2025-03-10' });
    const list = async (query: string) => {
      const res = await financeClient(t.app, token).get(`${P}${query}`);
      expect(res.status, query).toBe(200);
      return { ids: res.body.data.items.map((x: { id: string }) => x.id), total: res.body.data.total };
    };
    const all = await financeClient(t.app, token).get(P);
    expect(all.body.data).toMatchObject({ total: 4, page: 1, limit: 20 });
    expect(all.body.data.items.map((x: { id: string }) => x.id)).toEqual([d.id, b.id, a.id, c.id]);
    expect(await list('?from=2025-03-01&to=2025-03-31')).toEqual({ ids: [b.id, a.id], total: 2 });
    expect(await list('?status=open')).toEqual({ ids: [d.id, b.id, c.id], total: 3 });
    expect(await list('?status=paid&to=2025-03-31')).toEqual({ ids: [a.id], total: 1 });
    expect(await list('?status=open&limit=2&page=2')).toEqual({ ids: [c.id], total: 3 });
    for (const q of ['limit=101', 'from=2025-02-30', 'from=2025-04-01&to=2025-03-01', 'status=late']) {
      expect((await financeClient(t.app, token).get(`${P}?${q}`)).status, q).toBe(422);
    }
  });
});

describe('bill transitions', () => {
  it('pays an open bill once: paidAt, its expense transaction and bill.paid; paying again is a 409 that changes nothing', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const bill = await newFinanceBill(t, agent.accessToken, { amount: 99.99, category: 'utilities' });
    const res = await financeClient(t.app, agent.accessToken).post(`${P}/${bill.id}/pay`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Bill paid',
      data: { ...bill, status: 'paid', paidAt: iso, updatedAt: iso },
    });
    const events = await paidEvents(bill.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      accountId: Number(acme.accountId),
      payload: { event: 'bill.paid', account_id: acme.accountId, created_at: iso, data: res.body.data },
    });

    // The expense: exact cents, the bill's currency, dated the UTC day of the payment, linked to the bill.
    const [expense] = await expensesOf(bill.id);
    expect(await expensesOf(bill.id)).toHaveLength(1);
    expect(expense).toMatchObject({
      account_id: Number(acme.accountId),
      kind: 'expense',
      amount_cents: 9999,
      currency: 'BRL',
      date: res.body.data.paidAt.slice(0, 10),
      category: 'utilities',
      description: 'Power Co',
      status: 'completed',
    });
    const shown = await financeClient(t.app, agent.accessToken).get(`/api/transactions/${expense.id}`);
    expect(shown.body.data).toMatchObject({ kind: 'expense', amount: 99.99, billId: bill.id });
    const created = await transactionEvents('transaction.created', String(expense.id));
    expect(created.map((e) => e.payload.data)).toEqual([shown.body.data]);

    const stored = await row(bill.id);
    const again = await financeClient(t.app, agent.accessToken).post(`${P}/${bill.id}/pay`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      message: expect.stringContaining('is paid'),
      error: { code: 'invalid_transition', details: [{ field: 'status', message: 'is paid' }] },
    });
    expect(await row(bill.id)).toEqual(stored);
    expect(await paidEvents(bill.id)).toHaveLength(1);
    expect(await expensesOf(bill.id)).toHaveLength(1);
  });

  it('records one expense when two payments race', async () => {
    const bill = await newFinanceBill(t, acme.admin.accessToken, { amount: 10.01 });
    const c = financeClient(t.app, acme.admin.accessToken);
    const answers = await Promise.all([c.post(`${P}/${bill.id}/pay`), c.post(`${P}/${bill.id}/pay`)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await expensesOf(bill.id)).toHaveLength(1);
    expect(await paidEvents(bill.id)).toHaveLength(1);
  });

  it('cancels an open bill; a cancelled bill cannot be paid', async () => {
    const bill = await newFinanceBill(t, acme.admin.accessToken);
    const res = await financeClient(t.app, acme.admin.accessToken).post(`${P}/${bill.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...bill, status: 'cancelled', updatedAt: iso });
    const pay = await financeClient(t.app, acme.admin.accessToken).post(`${P}/${bill.id}/pay`);
    expect(pay.status).toBe(409);
    expect((await row(bill.id)).status).toBe('cancelled');
    expect(await paidEvents(bill.id)).toEqual([]);
    expect(await expensesOf(bill.id)).toEqual([]);
  });

  it('undoes a payment: cancelling a paid bill removes its expense (paidAt back to null); then 409', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const bill = await newFinanceBill(t, acme.admin.accessToken, { amount: 0.3 });
    const paid = await c.post(`${P}/${bill.id}/pay`);
    const [expense] = await expensesOf(bill.id);
    const res = await c.post(`${P}/${bill.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Bill cancelled',
      data: { ...paid.body.data, status: 'cancelled', paidAt: null, updatedAt: iso },
    });
    expect(await expensesOf(bill.id)).toEqual([]);
    expect((await c.get(`/api/transactions/${expense.id}`)).status).toBe(404);
    const listed = await c.get(`/api/transactions?kind=expense&from=${expense.date}&to=${expense.date}&limit=100`);
    expect(listed.body.data.items.map((x: { id: string }) => x.id)).not.toContain(String(expense.id));

    for (const action of ['pay', 'cancel']) {
      const again = await c.post(`${P}/${bill.id}/${action}`);
      expect(again.status, action).toBe(409);
      expect(again.body.error).toEqual({
        code: 'invalid_transition',
        details: [{ field: 'status', message: 'is cancelled' }],
      });
    }
  });
});

describe("a paid bill's expense", () => {
  it("follows the bill's amount, currency, category and supplier (transaction.updated); the due date is the bill's own", async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const bill = await newFinanceBill(t, acme.admin.accessToken, { supplier: 'Gas Co', amount: 50 });
    await c.post(`${P}/${bill.id}/pay`);
    const [before] = await expensesOf(bill.id);

    expect((await c.put(`${P}/${bill.id}`, { dueDate: '2030-01-31' })).status).toBe(200);
    expect(await expensesOf(bill.id)).toEqual([before]);
    expect(await transactionEvents('transaction.updated', String(before.id))).toEqual([]);

    const res = await financePatch(t.app, acme.admin.accessToken, `${P}/${bill.id}`, {
      amount: 1234.56,
      currency: 'USD',
      description: 'January gas',
      category: 'energy',
    });
    expect(res.status).toBe(200);
    const [after] = await expensesOf(bill.id);
    expect(after).toEqual({
      ...before,
      amount_cents: 123456,
      currency: 'USD',
      category: 'energy',
      description: 'Gas Co: January gas',
      updated_at: expect.any(Number),
    });
    const updated = await transactionEvents('transaction.updated', String(before.id));
    expect(updated.map((e) => e.payload.changed_attributes)).toEqual([
      [
        { amount: { previous_value: 50, current_value: 1234.56 } },
        { currency: { previous_value: 'BRL', current_value: 'USD' } },
        { category: { previous_value: null, current_value: 'energy' } },
        { description: { previous_value: 'Gas Co', current_value: 'Gas Co: January gas' } },
      ],
    ]);
  });

  it('cannot be changed in what the bill decides, nor deleted, through the transactions API (409 linked_to_bill)', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const bill = await newFinanceBill(t, acme.admin.accessToken, { amount: 20 });
    await c.post(`${P}/${bill.id}/pay`);
    const [expense] = await expensesOf(bill.id);
    const url = `/api/transactions/${expense.id}`;
    const before = await financeDataSnapshot(t.db);
    for (const body of [{ amount: 21 }, { kind: 'income' }, { currency: 'USD' }, { status: 'cancelled' }]) {
      const res = await financePatch(t.app, acme.admin.accessToken, url, { description: 'kept?', ...body });
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body).toMatchObject({
        success: false,
        message: expect.stringContaining(`bill ${bill.id}`),
        error: {
          code: 'linked_to_bill',
          details: [{ field: Object.keys(body)[0], message: `is set by bill ${bill.id}` }],
        },
      });
    }
    const deleted = await c.delete(url);
    expect(deleted.status).toBe(409);
    expect(deleted.body).toMatchObject({ error: { code: 'linked_to_bill' } });
    expect(await expensesOf(bill.id)).toEqual([expense]);
    expect(await financeDataSnapshot(t.db)).toEqual(before);

    // The day it was paid, its category and description stay editable (the same amount is no change).
    const fixed = await financePatch(t.app, acme.admin.accessToken, url, {
      date: '2025-03-31',
      category: 'office',
      description: 'Paid by bank transfer',
      amount: 20,
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ date: '2025-03-31', category: 'office', amount: 20, billId: bill.id });
  });

  it('goes with its bill when the bill is deleted', async () => {
    const c = financeClient(t.app, acme.admin.accessToken);
    const bill = await newFinanceBill(t, acme.admin.accessToken);
    await c.post(`${P}/${bill.id}/pay`);
    const [expense] = await expensesOf(bill.id);
    expect((await c.delete(`${P}/${bill.id}`)).status).toBe(200);
    expect((await c.get(`/api/transactions/${expense.id}`)).status).toBe(404);
  });
});

describe('PUT and PATCH /api/bills/:id', () => {
  it('changes the fields sent and keeps the others; null clears optional ones', async () => {
    const bill = await newFinanceBill(t, acme.admin.accessToken, { description: 'old', category: 'c' });
    const res = await financePatch(t.app, acme.admin.accessToken, `${P}/${bill.id}`, {
      amount: 1234.56,
      description: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Bill updated',
      data: { ...bill, amount: 1234.56, description: null, updatedAt: iso },
    });
    const put = await financeClient(t.app, acme.admin.accessToken).put(`${P}/${bill.id}`, {
      supplier: 'Water Co',
      dueDate: '2025-12-31',
      currency: 'USD',
    });
    expect(put.body.data).toEqual({
      ...res.body.data,
      supplier: 'Water Co',
      dueDate: '2025-12-31',
      currency: 'USD',
      updatedAt: iso,
    });
  });

  it('refuses bad input (including a status, which changes only through actions) with 422, changing nothing', async () => {
    const bill = await newFinanceBill(t, acme.admin.accessToken);
    const stored = await row(bill.id);
    for (const body of [
      {},
      { amount: 0.001 },
      { dueDate: '2025-02-30' },
      { supplier: '' },
      { supplier: '  ' },
      { amount: 1e13 },
    ]) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const res = await financeCall(t.app, { method, url: `${P}/${bill.id}`, token: acme.admin.accessToken, body });
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(422);
      }
    }
    // Unknown fields (status, accountId) are ignored: the status and the account never change through an update.
    const ignored = await financePatch(t.app, acme.admin.accessToken, `${P}/${bill.id}`, {
      status: 'paid',
      accountId: other.accountId,
      amount: 1,
    });
    expect(ignored.status).toBe(200);
    expect(await row(bill.id)).toEqual({ ...stored, amount_cents: 100, updated_at: expect.any(Number) });
  });
});

describe('DELETE /api/bills/:id', () => {
  it('is for administrators (agents 403)', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const bill = await newFinanceBill(t, agent.accessToken);
    expect((await financeClient(t.app, agent.accessToken).delete(`${P}/${bill.id}`)).status).toBe(403);
    const res = await financeClient(t.app, acme.admin.accessToken).delete(`${P}/${bill.id}`);
    expect(res.body).toEqual({ success: true, data: null, message: 'Bill deleted' });
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${bill.id}`)).status).toBe(404);
  });
});

describe('tenancy and authentication', () => {
  it("answers 404 for another account's bill on every route, changing nothing", async () => {
    const theirs = await newFinanceBill(t, other.admin.accessToken);
    const stored = await row(theirs.id);
    const url = `${P}/${theirs.id}`;
    const calls = [
      ['GET', url],
      ['PUT', url, { amount: 1 }],
      ['PATCH', url, { amount: 1 }],
      ['POST', `${url}/pay`],
      ['POST', `${url}/cancel`],
      ['DELETE', url],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await financeCall(t.app, { method, url: path, token: acme.admin.accessToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect(await row(theirs.id)).toEqual(stored);
    expect(await paidEvents(theirs.id)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', P],
      ['POST', P],
      ['GET', `${P}/1`],
      ['PUT', `${P}/1`],
      ['PATCH', `${P}/1`],
      ['POST', `${P}/1/pay`],
      ['POST', `${P}/1/cancel`],
      ['DELETE', `${P}/1`],
    ] as const) {
      const res = await financeCall(t.app, { method, url });
      expect(res.status, `${method} ${url}`).toBe(401);
    }
  });
});
