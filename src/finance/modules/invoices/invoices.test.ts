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
  newFinanceInvoice,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';
import type { FinanceDeps } from '../../context.js';
import { InvoicesService } from './invoices.service.js';

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

const P = '/api/invoices';
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const row = (id: string) =>
  t.db.selectFrom('invoices').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
const eventsOf = async (name: string, id: string) =>
  (await financeEvents(t.db, name)).filter((e) => e.payload.data.id === id);
const post = (path: string, token = acme.admin.accessToken) => financeClient(t.app, token).post(path);

describe('POST /api/invoices', () => {
  it('creates a draft invoice with the full shape and records invoice.created once', async () => {
    const res = await financeClient(t.app, acme.admin.accessToken).post(P, {
      customer: 'Globex',
      description: 'Consulting',
      amount: 1234.56,
      dueDate: '2025-05-31',
    });
    expect(res.status).toBe(201);
    const data = {
      id: expect.stringMatching(/^\d+$/),
      customer: 'Globex',
      description: 'Consulting',
      amount: 1234.56,
      currency: 'BRL',
      dueDate: '2025-05-31',
      status: 'draft',
      issuedAt: null,
      paidAt: null,
      overdueAt: null,
      createdAt: iso,
      updatedAt: iso,
    };
    expect(res.body).toEqual({ success: true, message: 'Invoice created', data });
    expect((await row(res.body.data.id)).amount_cents).toBe(123456);
    const events = await eventsOf('invoice.created', res.body.data.id);
    expect(events.map((e) => e.payload)).toEqual([
      { event: 'invoice.created', created_at: iso, account_id: acme.accountId, data: res.body.data },
    ]);
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${res.body.data.id}`)).body).toEqual({
      success: true,
      data: res.body.data,
    });
  });

  it('can issue at once', async () => {
    const invoice = await newFinanceInvoice(t, acme.admin.accessToken, { status: 'issued' });
    expect(invoice).toMatchObject({ status: 'issued', issuedAt: iso, paidAt: null });
  });

  it('refuses bad input with 422, changing nothing and recording nothing', async () => {
    const valid = { customer: 'C', amount: 10, dueDate: '2025-01-01' };
    const before = await financeDataSnapshot(t.db);
    const cases: [unknown, string][] = [
      [{ amount: 10, dueDate: '2025-01-01' }, 'customer'],
      [{ ...valid, customer: ' ' }, 'customer'],
      [{ ...valid, amount: 12.345 }, 'amount'],
      [{ ...valid, amount: 0.1 + 0.2 }, 'amount'],
      [{ ...valid, amount: true }, 'amount'],
      [{ ...valid, amount: 1e16 }, 'amount'],
      [{ ...valid, dueDate: '2023-02-29' }, 'dueDate'],
      [{ ...valid, status: 'paid' }, 'status'],
      [{ ...valid, description: 'x'.repeat(2001) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await financeClient(t.app, acme.admin.accessToken).post(P, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('GET /api/invoices', () => {
  it('filters by due-date period and status with totals and pagination', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    const a = await newFinanceInvoice(t, token, { dueDate: '2025-06-15' });
    const b = await newFinanceInvoice(t, token, { dueDate: '2025-06-01', status: 'issued' });
    const c = await newFinanceInvoice(t, token, { dueDate: '2025-07-01', status: 'issued' });
    await post(`${P}/${c.id}/pay`, token);
    await newFinanceInvoice(t, other.admin.accessToken, { dueDate: '2025-06-10' });
    const list = async (query: string) => {
      const res = await financeClient(t.app, token).get(`${P}${query}`);
      expect(res.status, query).toBe(200);
      return {
        ids: res.body.data.items.map((x: { id: string }) => x.id),
        total: res.body.data.total,
        page: res.body.data.page,
        limit: res.body.data.limit,
      };
    };
    expect(await list('')).toEqual({ ids: [b.id, a.id, c.id], total: 3, page: 1, limit: 20 });
    expect(await list('?from=2025-06-01&to=2025-06-30')).toEqual({ ids: [b.id, a.id], total: 2, page: 1, limit: 20 });
    expect(await list('?status=issued')).toEqual({ ids: [b.id], total: 1, page: 1, limit: 20 });
    expect(await list('?status=paid')).toEqual({ ids: [c.id], total: 1, page: 1, limit: 20 });
    expect(await list('?limit=1&page=2')).toEqual({ ids: [a.id], total: 3, page: 2, limit: 1 });
    for (const q of ['limit=500', 'page=-1', 'to=2025-06-31', 'status=unknown']) {
      expect((await financeClient(t.app, token).get(`${P}?${q}`)).status, q).toBe(422);
    }
  });
});

describe('invoice transitions', () => {
  it('draft -> issued -> paid: issuedAt, paidAt, invoice.paid recorded once', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const invoice = await newFinanceInvoice(t, agent.accessToken);
    // A draft cannot be paid.
    expect((await post(`${P}/${invoice.id}/pay`, agent.accessToken)).status).toBe(409);

    const issued = await post(`${P}/${invoice.id}/issue`, agent.accessToken);
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({
      success: true,
      message: 'Invoice issued',
      data: { ...invoice, status: 'issued', issuedAt: iso, updatedAt: iso },
    });
    const again = await post(`${P}/${invoice.id}/issue`, agent.accessToken);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      success: false,
      error: { code: 'invalid_transition', details: [{ field: 'status', message: 'is issued' }] },
    });

    const paid = await post(`${P}/${invoice.id}/pay`, agent.accessToken);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      success: true,
      message: 'Invoice paid',
      data: { ...issued.body.data, status: 'paid', paidAt: iso, updatedAt: iso },
    });
    const events = await eventsOf('invoice.paid', invoice.id);
    expect(events.map((e) => e.payload)).toEqual([
      { event: 'invoice.paid', created_at: iso, account_id: acme.accountId, data: paid.body.data },
    ]);

    const stored = await row(invoice.id);
    for (const action of ['pay', 'issue', 'cancel']) {
      const res = await post(`${P}/${invoice.id}/${action}`, agent.accessToken);
      expect(res.status, action).toBe(409);
      expect(res.body.error.code).toBe('invalid_transition');
    }
    expect(await row(invoice.id)).toEqual(stored);
    expect(await eventsOf('invoice.paid', invoice.id)).toHaveLength(1);
  });

  it('markOverdue: issued -> overdue once (invoice.overdue once); overdue can be paid', async () => {
    const invoice = await newFinanceInvoice(t, acme.admin.accessToken, { status: 'issued' });
    const draft = await newFinanceInvoice(t, acme.admin.accessToken);
    // The daily job's entry point, called as the job does: inside its own transaction.
    const service = new InvoicesService({ db: t.db, dialect: t.dialect, config: t.config } as unknown as FinanceDeps);
    const mark = (id: string, accountId = acme.accountId) =>
      t.db.transaction().execute((trx) => service.markOverdue(trx, Number(accountId), Number(id)));

    const first = await mark(invoice.id);
    expect(first).toMatchObject({ status: 'overdue', overdue_at: expect.any(Number) });
    expect(await mark(invoice.id)).toBeNull();
    expect(await mark(draft.id)).toBeNull();
    expect(await mark(invoice.id, other.accountId)).toBeNull();
    const events = await eventsOf('invoice.overdue', invoice.id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      event: 'invoice.overdue',
      account_id: acme.accountId,
      data: { id: invoice.id, status: 'overdue', overdueAt: iso },
    });
    expect(await eventsOf('invoice.overdue', draft.id)).toEqual([]);

    const shown = await financeClient(t.app, acme.admin.accessToken).get(`${P}/${invoice.id}`);
    expect(shown.body.data).toMatchObject({ status: 'overdue', overdueAt: iso });
    const paid = await post(`${P}/${invoice.id}/pay`);
    expect(paid.body.data).toMatchObject({ status: 'paid', paidAt: iso, overdueAt: iso });
  });

  it('cancels draft, issued or overdue invoices; a cancelled one cannot be issued or paid', async () => {
    const invoice = await newFinanceInvoice(t, acme.admin.accessToken, { status: 'issued' });
    const res = await post(`${P}/${invoice.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Invoice cancelled',
      data: { ...invoice, status: 'cancelled', updatedAt: iso },
    });
    for (const action of ['issue', 'pay', 'cancel'])
      expect((await post(`${P}/${invoice.id}/${action}`)).status, action).toBe(409);
    expect(await eventsOf('invoice.paid', invoice.id)).toEqual([]);
  });
});

describe('PUT and PATCH /api/invoices/:id', () => {
  it('changes the fields sent; bad input is a 422 that changes nothing', async () => {
    const invoice = await newFinanceInvoice(t, acme.admin.accessToken, { description: 'x' });
    const res = await financePatch(t.app, acme.admin.accessToken, `${P}/${invoice.id}`, {
      amount: 0.1,
      description: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Invoice updated',
      data: { ...invoice, amount: 0.1, description: null, updatedAt: iso },
    });
    const put = await financeClient(t.app, acme.admin.accessToken).put(`${P}/${invoice.id}`, {
      customer: 'Umbrella',
      dueDate: '2026-01-31',
    });
    expect(put.body.data).toEqual({ ...res.body.data, customer: 'Umbrella', dueDate: '2026-01-31', updatedAt: iso });

    const stored = await row(invoice.id);
    const before = await financeDataSnapshot(t.db);
    for (const body of [{}, { amount: 1.001 }, { dueDate: '2026-02-29' }, { customer: 7 }, { amount: -1 }]) {
      for (const method of ['PUT', 'PATCH'] as const) {
        expect(
          (await financeCall(t.app, { method, url: `${P}/${invoice.id}`, token: acme.admin.accessToken, body })).status,
        ).toBe(422);
      }
    }
    expect(await row(invoice.id)).toEqual(stored);
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('DELETE /api/invoices/:id', () => {
  it('is for administrators (agents 403)', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const invoice = await newFinanceInvoice(t, agent.accessToken);
    expect((await financeClient(t.app, agent.accessToken).delete(`${P}/${invoice.id}`)).status).toBe(403);
    expect((await financeClient(t.app, acme.admin.accessToken).delete(`${P}/${invoice.id}`)).body).toEqual({
      success: true,
      data: null,
      message: 'Invoice deleted',
    });
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${invoice.id}`)).status).toBe(404);
  });
});

describe('tenancy and authentication', () => {
  it("answers 404 for another account's invoice on every route, changing and recording nothing", async () => {
    const theirs = await newFinanceInvoice(t, other.admin.accessToken, { status: 'issued' });
    const stored = await row(theirs.id);
    const url = `${P}/${theirs.id}`;
    const calls = [
      ['GET', url],
      ['PUT', url, { amount: 1 }],
      ['PATCH', url, { amount: 1 }],
      ['POST', `${url}/issue`],
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
    expect(await eventsOf('invoice.paid', theirs.id)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const paths = [
      ['GET', P],
      ['POST', P],
      ['GET', `${P}/1`],
      ['PUT', `${P}/1`],
      ['PATCH', `${P}/1`],
      ['POST', `${P}/1/issue`],
      ['POST', `${P}/1/pay`],
      ['POST', `${P}/1/cancel`],
      ['DELETE', `${P}/1`],
    ] as const;
    for (const [method, url] of paths)
      expect((await financeCall(t.app, { method, url })).status, `${method} ${url}`).toBe(401);
  });
});
