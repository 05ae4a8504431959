import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../config.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  TEST_PASSWORD,
  acceptFinanceInvitation,
  countFinanceRows,
  ensureFinanceSetup,
  financeClient,
  financeSnapshot,
  plantFinanceInvitation,
} from '../../../../test/helpers/finance-factories.js';

describe('FINANCE_SIGNUP', () => {
  it('is open by default; only open and closed are accepted, and a wrong value names them', () => {
    expect(loadConfig({}).finance.signup).toBe('open');
    expect(loadConfig({ FINANCE_SIGNUP: 'closed' }).finance.signup).toBe('closed');
    for (const value of ['maybe', 'Closed', 'false']) {
      expect(() => loadConfig({ FINANCE_SIGNUP: value })).toThrow(ConfigError);
      expect(() => loadConfig({ FINANCE_SIGNUP: value })).toThrow('FINANCE_SIGNUP: must be one of: open, closed');
    }
  });
});

describe('with FINANCE_SIGNUP=closed', () => {
  let t: FinanceTestApp;
  beforeAll(async () => {
    t = await buildFinanceTestApp({ FINANCE_SIGNUP: 'closed' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('setup still creates the first user; registration answers 403 signup_closed and creates nothing', async () => {
    const operator = await ensureFinanceSetup(t);
    expect(operator.admin.accessToken).toEqual(expect.any(String));

    const before = await financeSnapshot(t.db);
    const res = await financeClient(t.app).post('/api/auth/register', {
      email: 'someone@example.test',
      password: TEST_PASSWORD,
      fullName: 'Some One',
      companyName: 'Some Co',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      message: 'Self-registration is closed on this server; ask an administrator for an invitation',
      error: { code: 'signup_closed' },
    });
    expect(await financeSnapshot(t.db)).toEqual(before);
    expect(
      (await financeClient(t.app).post('/api/auth/login', { email: 'someone@example.test', password: TEST_PASSWORD }))
        .status,
    ).toBe(401);
  });

  it('people still join through invitations', async () => {
    const operator = await ensureFinanceSetup(t);
    const users = await countFinanceRows(t.db, 'users');
    const token = await plantFinanceInvitation(t, operator, 'invited@example.test', 'agent');
    const joined = await acceptFinanceInvitation(t, token, { password: TEST_PASSWORD, fullName: 'Invited Person' });
    expect(joined.accountId).toBe(operator.accountId);
    expect(await countFinanceRows(t.db, 'users')).toBe(users + 1);
  });
});
