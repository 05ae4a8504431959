import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  TEST_PASSWORD,
  addFinanceMember,
  countFinanceRows,
  ensureFinanceSetup,
  financeClient,
  financeSnapshot,
  newFinanceAccount,
  newFinanceUser,
} from '../../../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
  await ensureFinanceSetup(t);
});
afterAll(async () => {
  await t.close();
});

const M = '/api/accounts/members';

describe('GET /api/accounts/members', () => {
  it('lists the members of the current account with roles, paginated', async () => {
    const account = await newFinanceAccount(t, { fullName: 'Ada Admin' });
    const agent = await addFinanceMember(t, account, 'agent', { fullName: 'Alan Agent' });
    await newFinanceAccount(t); // another account's members never appear
    const c = financeClient(t.app, account.admin.accessToken);
    const res = await c.get(M);
    expect(res.status).toBe(200);
    const member = (id: string, email: string, fullName: string, role: string) => ({
      id,
      email,
      fullName,
      role,
      avatarUrl: null,
      emailVerified: false,
      isSuperAdmin: false,
      joinedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(res.body).toEqual({
      success: true,
      data: {
        members: [member(account.admin.id, account.admin.email, 'Ada Admin', 'admin'), member(agent.id, agent.email, 'Alan Agent', 'agent')],
        total: 2,
        page: 1,
        limit: 20,
      },
    });
    const page2 = await c.get(`${M}?page=2&limit=1`);
    expect(page2.body.data).toMatchObject({ members: [{ id: agent.id }], total: 2, page: 2, limit: 1 });
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) expect((await c.get(`${M}?${q}`)).status, q).toBe(422);
  });
});

describe('POST /api/accounts/members', () => {
  it('creates a new user with a password who can then sign in to the account', async () => {
    const account = await newFinanceAccount(t);
    const email = `new-${Date.now()}@example.test`;
    const res = await financeClient(t.app, account.admin.accessToken).post(M, { email: email.toUpperCase(), fullName: 'Nina New', role: 'agent', password: 'nina password' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'User created and added to the account',
      data: { id: expect.stringMatching(/^\d+$/), email, fullName: 'Nina New', role: 'agent', avatarUrl: null, emailVerified: false, isSuperAdmin: false, joinedAt: expect.any(String) },
    });
    const login = await financeClient(t.app).post('/api/auth/login', { email, password: 'nina password' });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ user: { role: 'agent' }, account: { id: account.accountId } });
  });

  it('creates a user without a password (cannot sign in until they reset it)', async () => {
    const account = await newFinanceAccount(t);
    const email = `nopw-${Date.now()}@example.test`;
    const res = await financeClient(t.app, account.admin.accessToken).post(M, { email, fullName: 'No Password', role: 'agent' });
    expect(res.status).toBe(201);
    const row = await t.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect((await financeClient(t.app).post('/api/auth/login', { email, password: 'anything at all' })).status).toBe(401);
  });

  it('adds an existing user of another account without touching their name or password', async () => {
    const mine = await newFinanceAccount(t);
    const theirs = await newFinanceAccount(t, { fullName: 'Theo Theirs' });
    const res = await financeClient(t.app, mine.admin.accessToken).post(M, { email: theirs.admin.email, fullName: 'Renamed?', role: 'admin', password: 'hijack password' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('User added to the account');
    expect(res.body.data).toMatchObject({ id: theirs.admin.id, fullName: 'Theo Theirs', role: 'admin' });
    expect((await financeClient(t.app).post('/api/auth/login', { email: theirs.admin.email, password: 'hijack password' })).status).toBe(401);
    expect((await financeClient(t.app).post('/api/auth/login', { email: theirs.admin.email, password: TEST_PASSWORD })).status).toBe(200);
    const accounts = await financeClient(t.app, theirs.admin.accessToken).get('/api/auth/accounts');
    expect(accounts.body.data.map((a: { id: string }) => a.id)).toEqual([theirs.accountId, mine.accountId]);
  });

  it('answers 409 for a member already there and 422 for bad input, changing nothing', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    const c = financeClient(t.app, account.admin.accessToken);
    const before = await financeSnapshot(t.db);
    const dup = await c.post(M, { email: agent.email, role: 'admin' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ success: false, error: { code: 'conflict' } });
    const bad: unknown[] = [
      {},
      { email: 'x@example.test' },
      { email: 'x@example.test', role: 'owner', fullName: 'X' },
      { email: 'nope', role: 'agent', fullName: 'X' },
      { email: 'fresh@example.test', role: 'agent' }, // a new user needs fullName
      { email: 'fresh@example.test', role: 'agent', fullName: '  ' },
      { email: 'fresh@example.test', role: 'agent', fullName: 'X', password: 'short' },
      { email: 'fresh@example.test', role: 'agent', fullName: 'f'.repeat(201) },
    ];
    for (const body of bad) {
      const res = await c.post(M, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
    }
    expect(await financeSnapshot(t.db)).toEqual(before);
  });
});

describe('PUT and DELETE /api/accounts/members/:userId', () => {
  it('changes roles and removes members, never the last administrator', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    const c = financeClient(t.app, account.admin.accessToken);

    const lastDemote = await c.put(`${M}/${account.admin.id}`, { role: 'agent' });
    expect(lastDemote.status).toBe(422);
    expect(lastDemote.body.error.code).toBe('last_admin');
    const lastRemove = await c.delete(`${M}/${account.admin.id}`);
    expect(lastRemove.status).toBe(422);
    expect(lastRemove.body.error.code).toBe('last_admin');

    const promoted = await c.put(`${M}/${agent.id}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ id: agent.id, role: 'admin' });
    // The promoted member's existing token now passes admin routes (the role is read per request).
    expect((await financeClient(t.app, agent.accessToken).get(M)).status).toBe(200);

    const removed = await c.delete(`${M}/${account.admin.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, data: null, message: 'Member removed' });
    expect((await financeClient(t.app, account.admin.accessToken).get('/api/auth/me')).status).toBe(401);
    const list = await financeClient(t.app, agent.accessToken).get(M);
    expect(list.body.data.members.map((m: { id: string }) => m.id)).toEqual([agent.id]);
  });

  it('answers 404 for a user of another account or an unknown id, 422 for a malformed id', async () => {
    const mine = await newFinanceAccount(t);
    const theirs = await newFinanceAccount(t);
    const c = financeClient(t.app, mine.admin.accessToken);
    const before = await countFinanceRows(t.db, 'memberships');
    for (const res of [await c.delete(`${M}/${theirs.admin.id}`), await c.put(`${M}/${theirs.admin.id}`, { role: 'agent' }), await c.delete(`${M}/99999999`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await c.delete(`${M}/abc`)).status).toBe(422);
    expect((await c.put(`${M}/${mine.admin.id}`, { role: 'boss' })).status).toBe(422);
    expect(await countFinanceRows(t.db, 'memberships')).toBe(before);
  });

  it('is for administrators only: an agent gets 403, no token 401', async () => {
    const agent = await newFinanceUser(t, { role: 'agent' });
    const c = financeClient(t.app, agent.accessToken);
    const before = await financeSnapshot(t.db);
    for (const res of [await c.get(M), await c.post(M, { email: 'x@example.test', role: 'agent', fullName: 'X' }), await c.put(`${M}/${agent.id}`, { role: 'admin' }), await c.delete(`${M}/${agent.id}`)]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    expect(await financeSnapshot(t.db)).toEqual(before);
    expect((await financeClient(t.app).get(M)).status).toBe(401);
  });
});
