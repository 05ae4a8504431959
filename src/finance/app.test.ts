import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../test/helpers/test-app.js';
import fs from 'node:fs';
import path from 'node:path';
import { call } from '../../test/helpers/http.js';
import { financeClient, newFinanceAccount } from '../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('finance service shell', () => {
  it('answers /health after checking its database', async () => {
    const res = await call(t.app, { url: '/health' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('serves its OpenAPI document and docs page', async () => {
    const doc = await call(t.app, { url: '/openapi.json' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.title).toMatch(/finance/i);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/setup',
        '/api/accounts/members/{userId}',
        '/api/email/smtp',
        '/api/email/smtp/test',
      ]),
    );
    const page = await call(t.app, { url: '/docs/' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });

  it('answers unknown routes with the finance error envelope', async () => {
    const res = await call(t.app, { url: '/api/nowhere' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringContaining('not found'),
      error: { code: 'not_found' },
    });
  });
});

describe('finance secrets', () => {
  it("generates the JWT and encryption keys once under DATA_DIR (mode 0600); instances sharing it accept each other's tokens", async () => {
    for (const file of ['finance-jwt.key', 'finance-encryption.key']) {
      const full = path.join(t.config.dataDir, file);
      expect(fs.statSync(full).mode & 0o777).toBe(0o600);
    }
    const account = await newFinanceAccount(t);
    const second = await buildFinanceTestApp({}, { sameDatabaseAs: t });
    try {
      const me = await financeClient(second.app, account.admin.accessToken).get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe(account.admin.email);
    } finally {
      await second.close();
    }
  });

  it('rejects tokens signed by an instance with another secret', async () => {
    const account = await newFinanceAccount(t);
    const other = await buildFinanceTestApp(
      { FINANCE_JWT_SECRET: 'a-different-secret-0123456789-abcdef' },
      { sameDatabaseAs: t },
    );
    try {
      expect((await financeClient(other.app, account.admin.accessToken).get('/api/auth/me')).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
