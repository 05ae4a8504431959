import { afterEach, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  countFinanceRows,
  financeCall,
  financeClient,
  financeSnapshot,
  TEST_PASSWORD,
} from '../../../../test/helpers/finance-factories.js';

const SETUP_TOKEN = 'setup-token-0123456789';
const apps: FinanceTestApp[] = [];
async function fresh(env: Record<string, string> = {}) {
  const t = await buildFinanceTestApp(env);
  apps.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

const setupBody = {
  email: 'Owner@Example.TEST',
  password: TEST_PASSWORD,
  fullName: 'Olivia Owner',
  companyName: 'Owner Ltd',
};

describe('GET /api/auth/needs-setup and POST /api/auth/setup', () => {
  it('creates the SuperAdmin and their account once; needsSetup turns false; a second setup is 409', async () => {
    const t = await fresh();
    const c = financeClient(t.app);
    expect((await c.get('/api/auth/needs-setup')).body).toEqual({
      success: true,
      data: { needsSetup: true, requiresSetupToken: false },
    });

    const res = await c.post('/api/auth/setup', setupBody);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Setup complete',
      data: {
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresIn: 86400,
        user: {
          id: expect.stringMatching(/^\d+$/),
          email: 'owner@example.test',
          fullName: 'Olivia Owner',
          role: 'admin',
        },
        account: { id: expect.stringMatching(/^\d+$/), name: 'Owner Ltd' },
      },
    });
    const me = await financeClient(t.app, res.body.data.accessToken).get('/api/auth/me');
    expect(me.body.data).toMatchObject({
      email: 'owner@example.test',
      role: 'admin',
      isSuperAdmin: true,
      account: { name: 'Owner Ltd' },
    });

    expect((await c.get('/api/auth/needs-setup')).body.data).toEqual({ needsSetup: false, requiresSetupToken: false });
    const before = await financeSnapshot(t.db);
    const again = await c.post('/api/auth/setup', { ...setupBody, email: 'other@example.test' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, message: expect.any(String), error: { code: 'conflict' } });
    expect(await financeSnapshot(t.db)).toEqual(before);
  });

  it('names the account after the user when companyName is omitted', async () => {
    const t = await fresh();
    const { companyName: _omitted, ...body } = setupBody;
    const res = await financeClient(t.app).post('/api/auth/setup', body);
    expect(res.status).toBe(201);
    expect(res.body.data.account.name).toBe('Olivia Owner');
  });

  it('requires the configured setup token in the body or X-Setup-Token; missing 401, wrong 403', async () => {
    const t = await fresh({ FINANCE_SETUP_TOKEN: SETUP_TOKEN });
    const c = financeClient(t.app);
    expect((await c.get('/api/auth/needs-setup')).body.data).toEqual({ needsSetup: true, requiresSetupToken: true });

    const missing = await c.post('/api/auth/setup', setupBody);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('setup_token_required');
    const wrong = await c.post('/api/auth/setup', { ...setupBody, setupToken: 'not-the-token' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('invalid_setup_token');
    const wrongHeader = await financeCall(t.app, {
      method: 'POST',
      url: '/api/auth/setup',
      body: setupBody,
      headers: { 'x-setup-token': `${SETUP_TOKEN}x` },
    });
    expect(wrongHeader.status).toBe(403);
    expect(await countFinanceRows(t.db, 'users')).toBe(0);

    const viaHeader = await financeCall(t.app, {
      method: 'POST',
      url: '/api/auth/setup',
      body: setupBody,
      headers: { 'x-setup-token': SETUP_TOKEN },
    });
    expect(viaHeader.status).toBe(201);
    expect((await c.get('/api/auth/needs-setup')).body.data).toEqual({ needsSetup: false, requiresSetupToken: false });
    // Even with the right token, setup happens once.
    expect(
      (await c.post('/api/auth/setup', { ...setupBody, email: 'x@example.test', setupToken: SETUP_TOKEN })).status,
    ).toBe(409);
  });

  it('accepts the token in the body', async () => {
    const t = await fresh({ FINANCE_SETUP_TOKEN: SETUP_TOKEN });
    const res = await financeClient(t.app).post('/api/auth/setup', { ...setupBody, setupToken: SETUP_TOKEN });
    expect(res.status).toBe(201);
  });

  it('refuses registration until setup is done (so setup cannot be bypassed)', async () => {
    const t = await fresh({ FINANCE_SETUP_TOKEN: SETUP_TOKEN });
    const res = await financeClient(t.app).post('/api/auth/register', setupBody);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('setup_required');
    expect(await countFinanceRows(t.db, 'users')).toBe(0);
  });

  it('answers bad input with 422 in the envelope and creates nothing', async () => {
    const t = await fresh();
    const c = financeClient(t.app);
    const bad: unknown[] = [
      {},
      { ...setupBody, email: 'not-an-email' },
      { ...setupBody, password: 'short' },
      { ...setupBody, fullName: 42 },
      { ...setupBody, fullName: '   ' },
      { ...setupBody, fullName: 'x'.repeat(201) },
      { ...setupBody, companyName: '' },
      { ...setupBody, password: 'p'.repeat(257) },
    ];
    for (const body of bad) {
      const res = await c.post('/api/auth/setup', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({
        success: false,
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
    }
    expect(await countFinanceRows(t.db, 'users')).toBe(0);
    expect(await countFinanceRows(t.db, 'accounts')).toBe(0);
  });

  it('rate limits setup attempts per client address (429 with Retry-After)', async () => {
    const t = await fresh({ FINANCE_SETUP_TOKEN: SETUP_TOKEN });
    const c = financeClient(t.app, undefined, '203.0.113.7');
    for (let i = 0; i < 10; i++)
      expect((await c.post('/api/auth/setup', { ...setupBody, setupToken: `wrong-${i}` })).status).toBe(403);
    const limited = await c.post('/api/auth/setup', { ...setupBody, setupToken: SETUP_TOKEN });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect(await countFinanceRows(t.db, 'users')).toBe(0);
    // Another address is not limited.
    expect((await financeClient(t.app).post('/api/auth/setup', { ...setupBody, setupToken: SETUP_TOKEN })).status).toBe(
      201,
    );
  });
});
