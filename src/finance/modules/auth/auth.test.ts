import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  TEST_PASSWORD,
  addFinanceMember,
  countFinanceRows,
  ensureFinanceSetup,
  financeCall,
  financeClient,
  financeSnapshot,
  joinFinanceAccount,
  loginFinance,
  newFinanceAccount,
} from '../../../../test/helpers/finance-factories.js';
import { ACCESS_TOKEN_TTL_MS, signAccessToken } from '../../auth/access-token.js';

const JWT_SECRET = 'test-jwt-secret-0123456789-abcdefghij';
let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp({ FINANCE_JWT_SECRET: JWT_SECRET });
  await ensureFinanceSetup(t);
});
afterAll(async () => {
  await t.close();
});

const uniqueEmail = (p: string) => `${p}-${Math.random().toString(36).slice(2, 10)}@example.test`;

describe('POST /api/auth/register', () => {
  it('creates a user and an account they administer, and signs them in', async () => {
    const email = uniqueEmail('Reg');
    const res = await financeClient(t.app).post('/api/auth/register', {
      email: email.toUpperCase(),
      password: TEST_PASSWORD,
      fullName: ' Rita Register ',
      companyName: 'Rita Co',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Registered',
      data: {
        accessToken: expect.any(String),
        refreshToken: expect.stringMatching(/^rt_/),
        expiresIn: 86400,
        user: {
          id: expect.stringMatching(/^\d+$/),
          email: email.toLowerCase(),
          fullName: 'Rita Register',
          role: 'admin',
        },
        account: { id: expect.stringMatching(/^\d+$/), name: 'Rita Co' },
      },
    });
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', Number(res.body.data.user.id))
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.is_super_admin).toBe(0);
  });

  it('answers 409 for an e-mail already registered (any case) and creates nothing', async () => {
    const account = await newFinanceAccount(t);
    const before = await financeSnapshot(t.db);
    const res = await financeClient(t.app).post('/api/auth/register', {
      email: account.admin.email.toUpperCase(),
      password: TEST_PASSWORD,
      fullName: 'Dup',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: { code: 'conflict', details: [{ field: 'email' }] } });
    expect(await financeSnapshot(t.db)).toEqual(before);
  });

  it('answers bad input with 422 and creates nothing', async () => {
    await newFinanceAccount(t);
    const before = await financeSnapshot(t.db);
    const buckets = await t.db.selectFrom('rate_limit_buckets').selectAll().orderBy('key').execute();
    const good = { email: uniqueEmail('bad'), password: TEST_PASSWORD, fullName: 'Bad Input' };
    const bad: unknown[] = [
      {},
      { ...good, email: undefined },
      { ...good, email: 'nope' },
      { ...good, email: 12 },
      { ...good, password: '1234567' },
      { ...good, fullName: '' },
      { ...good, fullName: ' ' },
      { ...good, companyName: 'c'.repeat(201) },
      { ...good, email: `${'a'.repeat(320)}@example.test` },
    ];
    for (const body of bad) {
      const res = await financeClient(t.app).post('/api/auth/register', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({
        success: false,
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
    }
    const malformed = await financeCall(t.app, {
      method: 'POST',
      url: '/api/auth/register',
      body: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: { code: 'malformed_body' } });
    expect(await financeSnapshot(t.db)).toEqual(before);
    // Refused input does not even count towards the rate limit.
    expect(await t.db.selectFrom('rate_limit_buckets').selectAll().orderBy('key').execute()).toEqual(buckets);
  });
});

describe('POST /api/auth/login and GET /api/auth/me', () => {
  it('signs in with any e-mail case and returns tokens and the user', async () => {
    const account = await newFinanceAccount(t, { name: 'Login Co', fullName: 'Lena Login' });
    const res = await financeClient(t.app).post('/api/auth/login', {
      email: account.admin.email.toUpperCase(),
      password: TEST_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        accessToken: expect.any(String),
        refreshToken: expect.stringMatching(/^rt_/),
        expiresIn: 86400,
        user: { id: account.admin.id, email: account.admin.email, fullName: 'Lena Login', role: 'admin' },
        account: { id: account.accountId, name: 'Login Co' },
      },
    });

    const me = await financeClient(t.app, res.body.data.accessToken).get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      success: true,
      data: {
        id: account.admin.id,
        email: account.admin.email,
        fullName: 'Lena Login',
        role: 'admin',
        avatarUrl: null,
        // The factory's registration followed its verification link.
        emailVerified: true,
        isSuperAdmin: false,
        account: { id: account.accountId, name: 'Login Co' },
      },
    });
  });

  it('answers 401 invalid_credentials for a wrong password or unknown e-mail, the same way', async () => {
    const account = await newFinanceAccount(t);
    const wrong = await financeClient(t.app).post('/api/auth/login', {
      email: account.admin.email,
      password: 'wrong password',
    });
    const unknown = await financeClient(t.app).post('/api/auth/login', {
      email: uniqueEmail('ghost'),
      password: 'wrong password',
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        message: 'Invalid e-mail or password',
        error: { code: 'invalid_credentials' },
      });
    }
    expect(await countFinanceRows(t.db, 'refresh_tokens')).toBeGreaterThan(0);
  });

  it('answers bad login input with 422', async () => {
    for (const body of [
      {},
      { email: 'a@b.test' },
      { email: 'a@b.test', password: '' },
      { email: 5, password: 'x' },
      { email: 'a@b.test', password: 'p'.repeat(257) },
    ]) {
      const res = await financeClient(t.app).post('/api/auth/login', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
    }
  });

  it('rejects missing, malformed, foreign-key and expired access tokens with 401', async () => {
    const account = await newFinanceAccount(t);
    expect((await financeClient(t.app).get('/api/auth/me')).status).toBe(401);
    const garbage = await financeClient(t.app, 'not-a-jwt').get('/api/auth/me');
    expect(garbage.status).toBe(401);
    expect(garbage.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });

    const claims = {
      userId: Number(account.admin.id),
      accountId: Number(account.accountId),
      role: 'admin' as const,
      tokenVersion: 0,
    };
    const key = new TextEncoder().encode(JWT_SECRET);
    // Signed with the right key but issued 24 h + 1 s ago: expired.
    const expired = await signAccessToken(key, claims, Date.now() - ACCESS_TOKEN_TTL_MS - 1000);
    expect((await financeClient(t.app, expired).get('/api/auth/me')).status).toBe(401);
    // Issued 24 h - 1 min ago: still valid.
    const almost = await signAccessToken(key, claims, Date.now() - ACCESS_TOKEN_TTL_MS + 60_000);
    expect((await financeClient(t.app, almost).get('/api/auth/me')).status).toBe(200);
    // Signed with another key.
    const forged = await signAccessToken(new TextEncoder().encode('another-secret-0123456789-abcdefghij'), claims);
    expect((await financeClient(t.app, forged).get('/api/auth/me')).status).toBe(401);
    // A token for an account the user does not belong to.
    const other = await newFinanceAccount(t);
    const foreign = await signAccessToken(key, { ...claims, accountId: Number(other.accountId) });
    expect((await financeClient(t.app, foreign).get('/api/auth/me')).status).toBe(401);
  });

  it('rate limits login per e-mail (10 a minute) and per address (30 a minute), with Retry-After', async () => {
    const account = await newFinanceAccount(t);
    const ip = '198.51.100.20';
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await financeClient(t.app, undefined, ip).post('/api/auth/login', {
            email: account.admin.email,
            password: 'wrong password',
          })
        ).status,
      ).toBe(401);
    }
    // The 11th attempt for that e-mail is refused, even with the right password and from another address.
    const limited = await financeClient(t.app).post('/api/auth/login', {
      email: account.admin.email,
      password: TEST_PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: expect.any(String), error: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(120);

    const ip2 = '198.51.100.21';
    for (let i = 0; i < 30; i++) {
      expect(
        (
          await financeClient(t.app, undefined, ip2).post('/api/auth/login', {
            email: uniqueEmail('spray'),
            password: 'x',
          })
        ).status,
      ).toBe(401);
    }
    const perIp = await financeClient(t.app, undefined, ip2).post('/api/auth/login', {
      email: uniqueEmail('spray'),
      password: 'x',
    });
    expect(perIp.status).toBe(429);
    expect(perIp.headers['retry-after']).toBeDefined();
  });

  it('rate limits registration per address (10 an hour)', async () => {
    await newFinanceAccount(t);
    const ip = '198.51.100.30';
    for (let i = 0; i < 10; i++) {
      const res = await financeClient(t.app, undefined, ip).post('/api/auth/register', {
        email: uniqueEmail('burst'),
        password: TEST_PASSWORD,
        fullName: 'Burst',
      });
      expect(res.status).toBe(201);
    }
    const users = await countFinanceRows(t.db, 'users');
    const limited = await financeClient(t.app, undefined, ip).post('/api/auth/register', {
      email: uniqueEmail('burst'),
      password: TEST_PASSWORD,
      fullName: 'Burst',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    expect(await countFinanceRows(t.db, 'users')).toBe(users);
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates: returns a new pair; the new access token works', async () => {
    const { admin } = await newFinanceAccount(t);
    const res = await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { accessToken: expect.any(String), refreshToken: expect.stringMatching(/^rt_/), expiresIn: 86400 },
    });
    expect(res.body.data.refreshToken).not.toBe(admin.refreshToken);
    expect((await financeClient(t.app, res.body.data.accessToken).get('/api/auth/me')).status).toBe(200);
    // And the rotated token rotates again.
    expect(
      (await financeClient(t.app).post('/api/auth/refresh', { refreshToken: res.body.data.refreshToken })).status,
    ).toBe(200);
  });

  it('detects reuse: an already-used token answers 401 and revokes its whole family', async () => {
    const { admin } = await newFinanceAccount(t);
    const first = await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken });
    expect(first.status).toBe(200);
    const rotated = first.body.data.refreshToken;

    const reuse = await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    // The token issued by the rotation is revoked too.
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: rotated })).status).toBe(401);
    const rows = await t.db
      .selectFrom('refresh_tokens')
      .select(['revoked_at'])
      .where('user_id', '=', Number(admin.id))
      .execute();
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
    // Another session (another family) of the same user is untouched.
    const other = await loginFinance(t, admin.email, admin.password);
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: other.refreshToken })).status).toBe(
      200,
    );
  });

  it('answers 401 for an unknown or expired refresh token and 422 for bad input', async () => {
    const { admin } = await newFinanceAccount(t);
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: 'rt_unknown' })).status).toBe(401);
    await t.db
      .updateTable('refresh_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', Number(admin.id))
      .execute();
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken })).status).toBe(
      401,
    );
    const before = await countFinanceRows(t.db, 'refresh_tokens');
    for (const body of [{}, { refreshToken: '' }, { refreshToken: 7 }, { refreshToken: 'x'.repeat(201) }]) {
      expect((await financeClient(t.app).post('/api/auth/refresh', body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await countFinanceRows(t.db, 'refresh_tokens')).toBe(before);
  });
});

describe('GET /api/auth/accounts and POST /api/auth/switch-account', () => {
  it('lists the accounts of the user with their role and switches between them', async () => {
    const home = await newFinanceAccount(t, { name: 'Home' });
    const other = await newFinanceAccount(t, { name: 'Other' });
    // The admin of "Other" invites the admin of "Home" as an agent, who accepts.
    await joinFinanceAccount(t, other, home.admin, 'agent');

    const c = financeClient(t.app, home.admin.accessToken);
    const list = await c.get('/api/auth/accounts');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      success: true,
      data: [
        { id: home.accountId, name: 'Home', role: 'admin' },
        { id: other.accountId, name: 'Other', role: 'agent' },
      ],
    });

    const switched = await c.post('/api/auth/switch-account', { accountId: other.accountId });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 86400,
      user: { id: home.admin.id, email: home.admin.email, fullName: 'Ada Admin', role: 'agent' },
      account: { id: other.accountId, name: 'Other' },
    });
    const me = await financeClient(t.app, switched.body.data.accessToken).get('/api/auth/me');
    expect(me.body.data).toMatchObject({ role: 'agent', account: { id: other.accountId, name: 'Other' } });
    // In "Other" the user is an agent: admin routes are refused there.
    expect((await financeClient(t.app, switched.body.data.accessToken).get('/api/email/smtp')).status).toBe(403);
    // The refreshed pair stays in "Other".
    const refreshed = await financeClient(t.app).post('/api/auth/refresh', {
      refreshToken: switched.body.data.refreshToken,
    });
    expect((await financeClient(t.app, refreshed.body.data.accessToken).get('/api/auth/me')).body.data.account.id).toBe(
      other.accountId,
    );
    // The original token still acts in "Home".
    expect((await c.get('/api/auth/me')).body.data.account.id).toBe(home.accountId);
    // A numeric id is accepted too.
    expect((await c.post('/api/auth/switch-account', { accountId: Number(other.accountId) })).status).toBe(200);
  });

  it('answers 404 for an account the user does not belong to, and 422 for bad ids', async () => {
    const mine = await newFinanceAccount(t);
    const foreign = await newFinanceAccount(t);
    const c = financeClient(t.app, mine.admin.accessToken);
    const before = await countFinanceRows(t.db, 'refresh_tokens');
    const res = await c.post('/api/auth/switch-account', { accountId: foreign.accountId });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect((await c.post('/api/auth/switch-account', { accountId: '999999' })).status).toBe(404);
    for (const body of [
      {},
      { accountId: 'abc' },
      { accountId: '0' },
      { accountId: -1 },
      { accountId: '1'.repeat(11) },
    ]) {
      expect((await c.post('/api/auth/switch-account', body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await countFinanceRows(t.db, 'refresh_tokens')).toBe(before);
    expect((await financeClient(t.app).post('/api/auth/switch-account', { accountId: mine.accountId })).status).toBe(
      401,
    );
    expect((await financeClient(t.app).get('/api/auth/accounts')).status).toBe(401);
    expect((await c.get('/api/auth/accounts?limit=0')).status).toBe(422);
  });

  it('stops accepting an access token once its user is removed from the account', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    expect((await financeClient(t.app, agent.accessToken).get('/api/auth/me')).status).toBe(200);
    expect(
      (await financeClient(t.app, account.admin.accessToken).delete(`/api/accounts/members/${agent.id}`)).status,
    ).toBe(200);
    expect((await financeClient(t.app, agent.accessToken).get('/api/auth/me')).status).toBe(401);
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: agent.refreshToken })).status).toBe(
      401,
    );
    // Without any membership left, login is refused with 403.
    const login = await financeClient(t.app).post('/api/auth/login', { email: agent.email, password: agent.password });
    expect(login.status).toBe(403);
  });
});
