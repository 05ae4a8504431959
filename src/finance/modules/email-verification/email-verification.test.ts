import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer, type ReceivedEmail } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  countFinanceRows,
  ensureFinanceSetup,
  financeClient,
  newFinanceAccount,
  nextFinanceEmailTo,
  saveFinanceSmtp,
} from '../../../../test/helpers/finance-factories.js';

/**
 * A self-registered user invites members only once their address is verified (decisions/0031): an
 * open FINANCE_SIGNUP must not hand anyone the operator's mail server. The link comes at
 * registration (SMTP_URL) or on request (SMTP_URL, else the account's own server).
 */
let smtp: TestSmtpServer;
let withSmtpUrl: FinanceTestApp;
let without: FinanceTestApp;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  withSmtpUrl = await buildFinanceTestApp(
    { SMTP_URL: smtp.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { background: { pollIntervalMs: 20, dailyJob: false } },
  );
  without = await buildFinanceTestApp(
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { background: { pollIntervalMs: 20, dailyJob: false } },
  );
});
afterAll(async () => {
  await withSmtpUrl.close();
  await without.close();
  await smtp.stop();
});

const tokenOf = (email: ReceivedEmail) => {
  const match = /http:\/\/finance\.test\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(email.text);
  if (!match) throw new Error(`no verification link in: ${email.text}`);
  return match[1];
};
const SUBJECT = 'Confirm your e-mail address';

describe('e-mail verification of a self-registered user', () => {
  it('e-mails a link at registration; invitations wait for it; the link verifies once', async () => {
    const t = withSmtpUrl;
    const seen = smtp.received.length;
    const account = await newFinanceAccount(t, { verified: false });
    const mail = await nextFinanceEmailTo(smtp, account.admin.email, seen, SUBJECT);
    const token = tokenOf(mail);
    const api = financeClient(t.app, account.admin.accessToken);

    const invitations = await countFinanceRows(t.db, 'invitations');
    const refused = await api.post('/api/accounts/members', { email: 'friend@example.test', role: 'agent' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'email_not_verified' } });
    expect(refused.body.message).toContain(`follow the link sent to ${account.admin.email}`);
    expect(await countFinanceRows(t.db, 'invitations')).toBe(invitations);

    // The page asks for a click (a mail scanner fetching the link verifies nothing).
    const page = await financeClient(t.app).get(`/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="verify-email">');
    expect((await api.get('/api/auth/me')).body.data.emailVerified).toBe(false);

    const verified = await financeClient(t.app).post('/api/auth/verify-email', { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.message).toBe(`E-mail address ${account.admin.email} verified`);
    expect((await api.get('/api/auth/me')).body.data.emailVerified).toBe(true);
    const again = await financeClient(t.app).post('/api/auth/verify-email', { token });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('invalid_verification_token');

    const invited = await api.post('/api/accounts/members', { email: 'friend@example.test', role: 'agent' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await api.post('/api/auth/verify-email/resend')).body.message).toBe(
      `${account.admin.email} is already verified`,
    );
  });

  it('without SMTP_URL: asks for the link once the account has its own SMTP server, and the page verifies', async () => {
    const t = without;
    const account = await newFinanceAccount(t, { verified: false });
    const api = financeClient(t.app, account.admin.accessToken);
    expect(await t.db.selectFrom('outgoing_emails').selectAll().execute()).toEqual([]);
    const nowhere = await api.post('/api/auth/verify-email/resend');
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.error.code).toBe('smtp_not_configured');

    await saveFinanceSmtp(t, account, smtp);
    const seen = smtp.received.length;
    const sent = await api.post('/api/auth/verify-email/resend');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message).toBe(`A verification link was sent to ${account.admin.email}`);
    const mail = await nextFinanceEmailTo(smtp, account.admin.email, seen, SUBJECT);
    expect(mail.headers.from).toContain('billing@acme.test');

    const done = await t.app.inject({
      method: 'POST',
      url: '/verify-email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${tokenOf(mail)}`,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain(`${account.admin.email} is confirmed. You can now invite members.`);
    expect((await api.post('/api/accounts/members', { email: 'mate@example.test', role: 'agent' })).status).toBe(201);
  });

  it('the SuperAdmin who set the service up invites without it; another account never sees the link work for it', async () => {
    const t = without;
    const owner = await ensureFinanceSetup(t);
    await saveFinanceSmtp(t, owner, smtp);
    const res = await financeClient(t.app, owner.admin.accessToken).post('/api/accounts/members', {
      email: 'first-hire@example.test',
      role: 'agent',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await financeClient(t.app).post('/api/auth/verify-email', { token: 'not-a-token' })).status).toBe(422);
  });
});
