import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../core/security/tokens.js';
import { TestSmtpServer, type ReceivedEmail } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  TEST_PASSWORD,
  addFinanceMember,
  countFinanceRows,
  financeClient,
  joinFinanceAccount,
  newFinanceAccount,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';
import { FORGOT_PASSWORD_MESSAGE } from './passwords.routes.js';

let smtp: TestSmtpServer;
let t: FinanceTestApp;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  // Reset e-mails go through the durable mail queue: the background's mail worker sends them.
  t = await buildFinanceTestApp(
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { background: { pollIntervalMs: 20, dailyJob: false } },
  );
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function saveSmtp(account: FinanceTestAccount, fromEmail = 'billing@acme.test') {
  const res = await financeClient(t.app, account.admin.accessToken).post('/api/email/smtp', {
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    user: 'mailer',
    password: 'smtp-secret',
    fromName: 'Acme Billing',
    fromEmail,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Waits for the next e-mail to `to` and returns it. */
async function nextEmailTo(to: string, seen: number): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    // (With SMTP_URL, a registration's verification link goes out too: only reset e-mails count here.)
    const found = smtp.received.slice(seen).find((e) => e.to.includes(to) && /reset/i.test(e.text));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** The reset tokens recorded for a user (forgot-password records them right after answering). */
async function resetRowsOf(userId: string, atLeast: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', Number(userId)).execute();
    if (rows.length >= atLeast || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tokenOf = (email: ReceivedEmail) => {
  const match = /http:\/\/finance\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(email.text);
  if (!match) throw new Error(`no reset link in: ${email.text}`);
  return match[1];
};

describe('PUT /api/auth/password', () => {
  it('changes the password, ends every earlier session and returns a new pair', async () => {
    const account = await newFinanceAccount(t);
    const { admin } = account;
    const secondSession = await financeClient(t.app).post('/api/auth/login', {
      email: admin.email,
      password: TEST_PASSWORD,
    });
    const res = await financeClient(t.app, admin.accessToken).put('/api/auth/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Password changed',
      data: { accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 86400 },
    });

    // Earlier access tokens and refresh tokens (of every session) fail.
    expect((await financeClient(t.app, admin.accessToken).get('/api/auth/me')).status).toBe(401);
    expect((await financeClient(t.app, secondSession.body.data.accessToken).get('/api/auth/me')).status).toBe(401);
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken })).status).toBe(
      401,
    );
    expect(
      (await financeClient(t.app).post('/api/auth/refresh', { refreshToken: secondSession.body.data.refreshToken }))
        .status,
    ).toBe(401);
    // The new pair works; the old password does not, the new one does.
    expect((await financeClient(t.app, res.body.data.accessToken).get('/api/auth/me')).status).toBe(200);
    expect(
      (await financeClient(t.app).post('/api/auth/refresh', { refreshToken: res.body.data.refreshToken })).status,
    ).toBe(200);
    expect(
      (await financeClient(t.app).post('/api/auth/login', { email: admin.email, password: TEST_PASSWORD })).status,
    ).toBe(401);
    expect(
      (await financeClient(t.app).post('/api/auth/login', { email: admin.email, password: 'a brand new password' }))
        .status,
    ).toBe(200);
  });

  it('refuses a wrong current password or bad input with 422 and changes nothing', async () => {
    const { admin } = await newFinanceAccount(t);
    const c = financeClient(t.app, admin.accessToken);
    const userBefore = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', Number(admin.id))
      .executeTakeFirstOrThrow();
    const tokensBefore = await countFinanceRows(t.db, 'refresh_tokens');
    const wrong = await c.put('/api/auth/password', {
      currentPassword: 'not my password',
      newPassword: 'another password',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      success: false,
      error: { code: 'unprocessable_entity', details: [{ field: 'currentPassword' }] },
    });
    for (const body of [
      {},
      { currentPassword: TEST_PASSWORD },
      { currentPassword: TEST_PASSWORD, newPassword: 'short' },
      { currentPassword: 1, newPassword: 'long enough pw' },
    ]) {
      expect((await c.put('/api/auth/password', body)).status, JSON.stringify(body)).toBe(422);
    }
    const userAfter = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', Number(admin.id))
      .executeTakeFirstOrThrow();
    expect(userAfter).toEqual(userBefore);
    expect(await countFinanceRows(t.db, 'refresh_tokens')).toBe(tokensBefore);
    expect((await c.get('/api/auth/me')).status).toBe(200);
    expect(
      (
        await financeClient(t.app).put('/api/auth/password', {
          currentPassword: TEST_PASSWORD,
          newPassword: 'another password',
        })
      ).status,
    ).toBe(401);
  });
});

describe('POST /api/auth/forgot-password and /api/auth/reset-password', () => {
  it('e-mails a single-use link through the account SMTP; the token resets the password once and ends sessions', async () => {
    const account = await newFinanceAccount(t);
    await saveSmtp(account);
    const { admin } = account;
    const seen = smtp.received.length;

    const res = await financeClient(t.app).post('/api/auth/forgot-password', { email: admin.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null, message: FORGOT_PASSWORD_MESSAGE });

    const email = await nextEmailTo(admin.email, seen);
    expect(email.subject).toBe('Reset your password');
    expect(email.headers.from).toBe('Acme Billing <billing@acme.test>');
    const token = tokenOf(email);
    // Stored hashed, never in clear.
    const rows = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', Number(admin.id)).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256Hex(token));
    expect(rows[0].expires_at - rows[0].created_at).toBe(60 * 60 * 1000);

    const reset = await financeClient(t.app).post('/api/auth/reset-password', { token, password: 'reset password 1' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, data: null, message: expect.any(String) });
    expect((await financeClient(t.app, admin.accessToken).get('/api/auth/me')).status).toBe(401);
    expect((await financeClient(t.app).post('/api/auth/refresh', { refreshToken: admin.refreshToken })).status).toBe(
      401,
    );
    const login = await financeClient(t.app).post('/api/auth/login', {
      email: admin.email,
      password: 'reset password 1',
    });
    expect(login.status).toBe(200);
    // The link proved the address.
    expect((await financeClient(t.app, login.body.data.accessToken).get('/api/auth/me')).body.data.emailVerified).toBe(
      true,
    );

    const again = await financeClient(t.app).post('/api/auth/reset-password', { token, password: 'reset password 2' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ success: false, error: { code: 'invalid_reset_token' } });
    expect(
      (await financeClient(t.app).post('/api/auth/login', { email: admin.email, password: 'reset password 1' })).status,
    ).toBe(200);
  });

  it('answers an unknown e-mail the same way, records nothing and sends nothing', async () => {
    const account = await newFinanceAccount(t);
    await saveSmtp(account);
    const resetsBefore = await countFinanceRows(t.db, 'password_resets');
    const seen = smtp.received.length;
    const unknown = await financeClient(t.app).post('/api/auth/forgot-password', { email: 'nobody-here@example.test' });
    const known = await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await nextEmailTo(account.admin.email, seen);
    expect(await countFinanceRows(t.db, 'password_resets')).toBe(resetsBefore + 1);
    expect(smtp.received.slice(seen).some((e) => e.to.includes('nobody-here@example.test'))).toBe(false);
  });

  it("uses the SMTP of the user's oldest membership whose account has one", async () => {
    const first = await newFinanceAccount(t);
    const second = await newFinanceAccount(t);
    const third = await newFinanceAccount(t);
    // Member of `first` (no SMTP), then of `second` and `third` (both with SMTP).
    const member = await addFinanceMember(t, first, 'agent');
    for (const account of [second, third]) await joinFinanceAccount(t, account, member, 'agent');
    await saveSmtp(third, 'third@acme.test');
    await saveSmtp(second, 'second@acme.test');
    const seen = smtp.received.length;
    expect((await financeClient(t.app).post('/api/auth/forgot-password', { email: member.email })).status).toBe(200);
    const email = await nextEmailTo(member.email, seen);
    expect(email.headers.from).toContain('second@acme.test');
  });

  it('a newer link replaces earlier ones; an expired token fails', async () => {
    const account = await newFinanceAccount(t);
    await saveSmtp(account);
    let seen = smtp.received.length;
    await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email });
    const firstToken = tokenOf(await nextEmailTo(account.admin.email, seen));
    seen = smtp.received.length;
    await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email });
    const secondToken = tokenOf(await nextEmailTo(account.admin.email, seen));
    expect(secondToken).not.toBe(firstToken);
    expect(
      (await financeClient(t.app).post('/api/auth/reset-password', { token: firstToken, password: 'whatever pw 1' }))
        .status,
    ).toBe(422);

    await t.db
      .updateTable('password_resets')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', sha256Hex(secondToken))
      .execute();
    const expired = await financeClient(t.app).post('/api/auth/reset-password', {
      token: secondToken,
      password: 'whatever pw 2',
    });
    expect(expired.status).toBe(422);
    expect(
      (await financeClient(t.app).post('/api/auth/login', { email: account.admin.email, password: TEST_PASSWORD }))
        .status,
    ).toBe(200);
  });

  it('answers the same when no SMTP is configured anywhere (nothing is sent)', async () => {
    const account = await newFinanceAccount(t);
    const seen = smtp.received.length;
    const res = await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email });
    expect(res.body).toEqual({ success: true, data: null, message: FORGOT_PASSWORD_MESSAGE });
    // The token is recorded, but there is no SMTP to send it with: no e-mail is even queued.
    expect(await resetRowsOf(account.admin.id, 1)).toHaveLength(1);
    const queued = await t.db.selectFrom('outgoing_emails').select('to_addresses').execute();
    expect(queued.some((e) => e.to_addresses.includes(account.admin.email))).toBe(false);
    expect(smtp.received.slice(seen).some((e) => e.to.includes(account.admin.email))).toBe(false);
  });

  it('answers bad input with 422 and changes nothing', async () => {
    const resets = await countFinanceRows(t.db, 'password_resets');
    for (const body of [{}, { email: 'not-an-email' }, { email: 7 }, { email: `${'a'.repeat(330)}@x.test` }]) {
      expect((await financeClient(t.app).post('/api/auth/forgot-password', body)).status, JSON.stringify(body)).toBe(
        422,
      );
    }
    for (const body of [
      {},
      { token: 'abc' },
      { token: 'abc', password: 'short' },
      { token: '', password: 'long enough 1' },
      { token: 5, password: 'long enough 1' },
    ]) {
      const res = await financeClient(t.app).post('/api/auth/reset-password', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
    }
    expect(
      (
        await financeClient(t.app).post('/api/auth/reset-password', {
          token: 'unknown-token',
          password: 'long enough 1',
        })
      ).body.error.code,
    ).toBe('invalid_reset_token');
    expect(await countFinanceRows(t.db, 'password_resets')).toBe(resets);
  });

  it('rate limits forgot-password per e-mail (5 an hour) and reset per address', async () => {
    const account = await newFinanceAccount(t);
    for (let i = 0; i < 5; i++)
      expect(
        (await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email })).status,
      ).toBe(200);
    const limited = await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Five links were issued, none for the refused request.
    expect(await resetRowsOf(account.admin.id, 5)).toHaveLength(5);

    const ip = '192.0.2.44';
    for (let i = 0; i < 10; i++)
      expect(
        (
          await financeClient(t.app, undefined, ip).post('/api/auth/reset-password', {
            token: `guess-${i}`,
            password: 'long enough 1',
          })
        ).status,
      ).toBe(422);
    expect(
      (
        await financeClient(t.app, undefined, ip).post('/api/auth/reset-password', {
          token: 'guess-x',
          password: 'long enough 1',
        })
      ).status,
    ).toBe(429);
  });
});

describe('forgot-password through the instance SMTP_URL', () => {
  it('falls back to SMTP_URL and MAIL_FROM when no account of the user has SMTP', async () => {
    const t2 = await buildFinanceTestApp(
      { SMTP_URL: smtp.url, MAIL_FROM: 'Ponte <no-reply@ponte.test>' },
      { background: { pollIntervalMs: 20, dailyJob: false } },
    );
    try {
      const account = await newFinanceAccount(t2);
      const seen = smtp.received.length;
      expect(
        (await financeClient(t2.app).post('/api/auth/forgot-password', { email: account.admin.email })).status,
      ).toBe(200);
      const email = await nextEmailTo(account.admin.email, seen);
      expect(email.headers.from).toBe('Ponte <no-reply@ponte.test>');
      expect(tokenOf(email)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    } finally {
      await t2.close();
    }
  });
});
