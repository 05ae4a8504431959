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
  newFinanceContract,
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

const P = '/api/contracts';
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const row = (id: string) =>
  t.db.selectFrom('contracts').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
const eventsOf = async (name: string, id: string) =>
  (await financeEvents(t.db, name)).filter((e) => e.payload.data.id === id);

describe('POST /api/contracts', () => {
  it('creates an active contract with the full shape and records contract.created once', async () => {
    const res = await financeClient(t.app, acme.admin.accessToken).post(P, {
      party: 'Initech',
      description: 'Support',
      value: 0.2,
      currency: 'USD',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Contract created',
      data: {
        id: expect.stringMatching(/^\d+$/),
        party: 'Initech',
        description: 'Support',
        value: 0.2,
        currency: 'USD',
        startDate: '2025-01-01',
        endDate: '2025-12-31',
        status: 'active',
        cancelledAt: null,
        createdAt: iso,
        updatedAt: iso,
      },
    });
    expect((await row(res.body.data.id)).value_cents).toBe(20);
    const events = await eventsOf('contract.created', res.body.data.id);
    expect(events.map((e) => e.payload)).toEqual([
      { event: 'contract.created', created_at: iso, account_id: acme.accountId, data: res.body.data },
    ]);
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${res.body.data.id}`)).body).toEqual({
      success: true,
      data: res.body.data,
    });
    const openEnded = await newFinanceContract(t, acme.admin.accessToken, { value: 0 });
    expect(openEnded).toMatchObject({ endDate: null, description: null, value: 0, currency: 'BRL' });
  });

  it('refuses bad input with 422, changing and recording nothing', async () => {
    const valid = { party: 'P', value: 10, startDate: '2025-01-01' };
    const before = await financeDataSnapshot(t.db);
    const cases: [unknown, string][] = [
      [{ value: 10, startDate: '2025-01-01' }, 'party'],
      [{ party: 'P', startDate: '2025-01-01' }, 'value'],
      [{ party: 'P', value: 10 }, 'startDate'],
      [{ ...valid, value: 12.345 }, 'value'],
      [{ ...valid, value: -0.01 }, 'value'],
      [{ ...valid, value: 1e300 }, 'value'],
      [{ ...valid, value: [1] }, 'value'],
      [{ ...valid, startDate: '2025-04-31' }, 'startDate'],
      [{ ...valid, endDate: '2024-12-31' }, 'endDate'],
      [{ ...valid, endDate: '2025-02-30' }, 'endDate'],
      [{ ...valid, party: 'x'.repeat(201) }, 'party'],
    ];
    for (const [body, field] of cases) {
      const res = await financeClient(t.app, acme.admin.accessToken).post(P, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('GET /api/contracts', () => {
  it('filters by start-date period and status, latest start first, with totals', async () => {
    const account = await newFinanceAccount(t);
    const token = account.admin.accessToken;
    const a = await newFinanceContract(t, token, { startDate: '2024-12-31' });
    const b = await newFinanceContract(t, token, { startDate: '2025-01-01' });
    const c = await newFinanceContract(t, token, { startDate: '2025-06-30' });
    await financeClient(t.app, token).post(`${P}/${b.id}/cancel`);
    await newFinanceContract(t, other.admin.accessToken, { startDate: '2025-03-01' });
    const list = async (query: string) => {
      const res = await financeClient(t.app, token).get(`${P}${query}`);
      expect(res.status, query).toBe(200);
      return { ids: res.body.data.items.map((x: { id: string }) => x.id), total: res.body.data.total };
    };
    const all = await financeClient(t.app, token).get(P);
    expect(all.body.data).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(all.body.data.items.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(await list('?from=2025-01-01&to=2025-12-31')).toEqual({ ids: [c.id, b.id], total: 2 });
    expect(await list('?status=active')).toEqual({ ids: [c.id, a.id], total: 2 });
    expect(await list('?status=cancelled&from=2025-01-01')).toEqual({ ids: [b.id], total: 1 });
    expect(await list('?limit=2&page=2')).toEqual({ ids: [a.id], total: 3 });
    for (const q of ['limit=101', 'from=2025-02-29', 'from=2025-12-31&to=2025-01-01', 'status=ended']) {
      expect((await financeClient(t.app, token).get(`${P}?${q}`)).status, q).toBe(422);
    }
  });
});

describe('POST /api/contracts/:id/cancel', () => {
  it('cancels an active contract once (cancelledAt, contract.cancelled once); again is a 409 that changes nothing', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const contract = await newFinanceContract(t, agent.accessToken);
    const res = await financeClient(t.app, agent.accessToken).post(`${P}/${contract.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Contract cancelled',
      data: { ...contract, status: 'cancelled', cancelledAt: iso, updatedAt: iso },
    });
    const events = await eventsOf('contract.cancelled', contract.id);
    expect(events.map((e) => e.payload)).toEqual([
      { event: 'contract.cancelled', created_at: iso, account_id: acme.accountId, data: res.body.data },
    ]);

    const stored = await row(contract.id);
    const again = await financeClient(t.app, agent.accessToken).post(`${P}/${contract.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      message: 'This contract is cancelled: only active contracts can be cancelled',
      error: { code: 'invalid_transition', details: [{ field: 'status', message: 'is cancelled' }] },
    });
    expect(await row(contract.id)).toEqual(stored);
    expect(await eventsOf('contract.cancelled', contract.id)).toHaveLength(1);
  });
});

describe('PUT and PATCH /api/contracts/:id', () => {
  it('changes the fields sent and checks the dates against the stored ones', async () => {
    const contract = await newFinanceContract(t, acme.admin.accessToken, {
      startDate: '2025-01-01',
      endDate: '2025-06-30',
    });
    const res = await financePatch(t.app, acme.admin.accessToken, `${P}/${contract.id}`, {
      value: 1234.56,
      endDate: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Contract updated',
      data: { ...contract, value: 1234.56, endDate: null, updatedAt: iso },
    });
    const put = await financeClient(t.app, acme.admin.accessToken).put(`${P}/${contract.id}`, {
      endDate: '2025-01-01',
    });
    expect(put.body.data).toMatchObject({ startDate: '2025-01-01', endDate: '2025-01-01' });

    const stored = await row(contract.id);
    const before = await financeDataSnapshot(t.db);
    for (const body of [
      {},
      { startDate: '2025-01-02' },
      { endDate: '2024-12-31' },
      { value: 0.005 },
      { party: '' },
      { startDate: '2025-02-30' },
    ]) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const r = await financeCall(t.app, { method, url: `${P}/${contract.id}`, token: acme.admin.accessToken, body });
        expect(r.status, `${method} ${JSON.stringify(body)}`).toBe(422);
        expect(r.body.success).toBe(false);
      }
    }
    expect(await row(contract.id)).toEqual(stored);
    expect(await financeDataSnapshot(t.db)).toEqual(before);
  });
});

describe('DELETE /api/contracts/:id', () => {
  it('is for administrators (agents 403)', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const contract = await newFinanceContract(t, agent.accessToken);
    expect((await financeClient(t.app, agent.accessToken).delete(`${P}/${contract.id}`)).status).toBe(403);
    expect((await financeClient(t.app, acme.admin.accessToken).delete(`${P}/${contract.id}`)).body).toEqual({
      success: true,
      data: null,
      message: 'Contract deleted',
    });
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${contract.id}`)).status).toBe(404);
  });
});

describe('tenancy and authentication', () => {
  it("answers 404 for another account's contract on every route, changing and recording nothing", async () => {
    const theirs = await newFinanceContract(t, other.admin.accessToken);
    const stored = await row(theirs.id);
    const url = `${P}/${theirs.id}`;
    const calls = [
      ['GET', url],
      ['PUT', url, { value: 1 }],
      ['PATCH', url, { value: 1 }],
      ['POST', `${url}/cancel`],
      ['DELETE', url],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await financeCall(t.app, { method, url: path, token: acme.admin.accessToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect(await row(theirs.id)).toEqual(stored);
    expect(await eventsOf('contract.cancelled', theirs.id)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const paths = [
      ['GET', P],
      ['POST', P],
      ['GET', `${P}/1`],
      ['PUT', `${P}/1`],
      ['PATCH', `${P}/1`],
      ['POST', `${P}/1/cancel`],
      ['DELETE', `${P}/1`],
    ] as const;
    for (const [method, url] of paths)
      expect((await financeCall(t.app, { method, url })).status, `${method} ${url}`).toBe(401);
  });
});
