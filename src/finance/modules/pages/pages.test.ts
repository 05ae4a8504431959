import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import {
  financeClient,
  loginFinance,
  newFinanceAccount,
  plantFinanceInvitation,
  TEST_PASSWORD,
} from '../../../../test/helpers/finance-factories.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';

/** The pages the finance e-mails link to, used as a person would: read the form, post it back. */

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (url: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });

async function plantReset(userId: string): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await t.db
    .insertInto('password_resets')
    .values({
      user_id: Number(userId),
      token_hash: sha256Hex(token),
      expires_at: now + 3_600_000,
      used_at: null,
      created_at: now,
    })
    .execute();
  return token;
}

describe('the reset-password page', () => {
  it('shows a form with no script, then changes the password once', async () => {
    const account = await newFinanceAccount(t);
    const token = await plantReset(account.admin.id);
    const page = await t.app.inject({ url: `/reset-password?token=${encodeURIComponent(token)}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<form method="post" action="reset-password">');
    expect(page.body).not.toContain('<script');

    const differ = await post('/reset-password', { token, password: 'a brand new secret', confirm: 'another secret' });
    expect(differ.statusCode).toBe(422);
    expect(differ.body).toContain('The two passwords differ.');
    const done = await post('/reset-password', {
      token,
      password: 'a brand new secret',
      confirm: 'a brand new secret',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your password was changed');
    expect((await loginFinance(t, account.admin.email, 'a brand new secret')).email).toBe(account.admin.email);
    const again = await post('/reset-password', {
      token,
      password: 'yet another secret',
      confirm: 'yet another secret',
    });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('invalid, was already used or has expired');
  });

  it('escapes what it echoes', async () => {
    const page = await t.app.inject({
      url: `/reset-password?token=${encodeURIComponent('"><script>alert(1)</script>')}`,
    });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('the accept-invitation page', () => {
  it('lets a new address choose its name and password, and join', async () => {
    const account = await newFinanceAccount(t, { name: 'Padaria <Central>' });
    const token = await plantFinanceInvitation(t, account, 'newcomer@example.test', 'agent');
    const page = await t.app.inject({ url: `/accept-invitation?token=${encodeURIComponent(token)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Join Padaria &lt;Central&gt;');
    expect(page.body).toContain('name="fullName"');
    const joined = await post('/accept-invitation', {
      token,
      fullName: 'New Comer',
      password: 'chosen password 1',
      confirm: 'chosen password 1',
    });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.body).toContain('You joined Padaria &lt;Central&gt; as an agent');
    const session = await loginFinance(t, 'newcomer@example.test', 'chosen password 1');
    expect(session.accountId).toBe(account.accountId);
    expect((await t.app.inject({ url: `/accept-invitation?token=${encodeURIComponent(token)}` })).statusCode).toBe(422);
  });

  it('asks an existing user for their own password, never a new one', async () => {
    const home = await newFinanceAccount(t);
    const employer = await newFinanceAccount(t);
    const token = await plantFinanceInvitation(t, employer, home.admin.email, 'admin');
    const page = await t.app.inject({ url: `/accept-invitation?token=${encodeURIComponent(token)}` });
    expect(page.body).toContain('confirm with your password');
    expect(page.body).not.toContain('name="fullName"');
    const wrong = await post('/accept-invitation', { token, password: 'not my password' });
    expect(wrong.statusCode).toBe(401);
    const joined = await post('/accept-invitation', { token, password: TEST_PASSWORD });
    expect(joined.statusCode, joined.body).toBe(200);
    const accounts = await financeClient(t.app, home.admin.accessToken).get('/api/auth/accounts');
    expect(accounts.body.data.map((a: { id: string }) => a.id)).toContain(employer.accountId);
  });
});
