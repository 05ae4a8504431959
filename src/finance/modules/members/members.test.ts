import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
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
    const member = (id: string, email: string, fullName: string, role: string, emailVerified: boolean) => ({
      id,
      email,
      fullName,
      role,
      avatarUrl: null,
      emailVerified,
      isSuperAdmin: false,
      joinedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(res.body).toEqual({
      success: true,
      data: {
        // Both addresses are verified: the administrator followed their link (the factory), the agent
        // joined through an e-mailed invitation link.
        members: [
          member(account.admin.id, account.admin.email, 'Ada Admin', 'admin', true),
          member(agent.id, agent.email, 'Alan Agent', 'agent', true),
        ],
        total: 2,
        page: 1,
        limit: 20,
      },
    });
    const page2 = await c.get(`${M}?page=2&limit=1`);
    expect(page2.body.data).toMatchObject({ members: [{ id: agent.id }], total: 2, page: 2, limit: 1 });
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x'])
      expect((await c.get(`${M}?${q}`)).status, q).toBe(422);
  });
});

// POST /api/accounts/members is an invitation now: see modules/invitations/invitations.test.ts.

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
    for (const res of [
      await c.delete(`${M}/${theirs.admin.id}`),
      await c.put(`${M}/${theirs.admin.id}`, { role: 'agent' }),
      await c.delete(`${M}/99999999`),
    ]) {
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
    for (const res of [
      await c.get(M),
      await c.post(M, { email: 'x@example.test', role: 'agent', fullName: 'X' }),
      await c.put(`${M}/${agent.id}`, { role: 'admin' }),
      await c.delete(`${M}/${agent.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    expect(await financeSnapshot(t.db)).toEqual(before);
    expect((await financeClient(t.app).get(M)).status).toBe(401);
  });
});
