import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  financeClient,
  newFinanceAccount,
  nextFinanceEmailTo,
  saveFinanceSmtp,
} from '../../../../test/helpers/finance-factories.js';

/**
 * Finance e-mails go through core's durable mail queue: a crash between the request and the send
 * loses nothing, and each e-mail takes the right server. Identity e-mails (invitations, password
 * resets) go through the operator's SMTP_URL when it is set, never through a server an account's
 * administrators run; reports go through the account's own server.
 */

let operator: TestSmtpServer;
let accountServer: TestSmtpServer;
let t: FinanceTestApp;

beforeAll(async () => {
  operator = await new TestSmtpServer().start();
  accountServer = await new TestSmtpServer().start();
  t = await buildFinanceTestApp(
    { SMTP_URL: operator.url, MAIL_FROM: 'Ponte <no-reply@ponte.test>', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { background: { pollIntervalMs: 20, dailyJob: false } },
  );
});
afterAll(async () => {
  await t.close();
  await operator.stop();
  await accountServer.stop();
});

describe('finance mail routing', () => {
  it('sends invitations and password resets through SMTP_URL, even when the account has its own server', async () => {
    const account = await newFinanceAccount(t);
    await saveFinanceSmtp(t, account, accountServer);
    const seenOperator = operator.received.length;
    const seenAccount = accountServer.received.length;
    const invited = await financeClient(t.app, account.admin.accessToken).post('/api/accounts/members', {
      email: 'newcomer@example.test',
      role: 'agent',
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const invitation = await nextFinanceEmailTo(operator, 'newcomer@example.test', seenOperator);
    expect(invitation.headers.from).toContain('no-reply@ponte.test');
    expect((await financeClient(t.app).post('/api/auth/forgot-password', { email: account.admin.email })).status).toBe(
      200,
    );
    const reset = await nextFinanceEmailTo(operator, account.admin.email, seenOperator, 'Reset your password');
    expect(reset.subject).toBe('Reset your password');
    expect(accountServer.received.slice(seenAccount)).toEqual([]);
    // Both are on the queue's log, sent (the worker records it just after the server's answer).
    const rows = () =>
      t.db.selectFrom('outgoing_emails').select(['source', 'status']).where('source', 'like', 'identity:%').execute();
    await expect
      .poll(async () =>
        (await rows()).map((r) => `${(r.source ?? '').split(':').slice(0, 2).join(':')} ${r.status}`).sort(),
      )
      .toEqual(['identity:email_verification sent', 'identity:invitation sent', 'identity:password_reset sent']);
  });

  it("sends the accountant's report through the account's own server, with its CSV attachment", async () => {
    const account = await newFinanceAccount(t);
    await saveFinanceSmtp(t, account, accountServer, 'books@acme.test');
    const api = financeClient(t.app, account.admin.accessToken);
    expect((await api.post('/api/email/accountant', { email: 'accountant@example.test' })).status).toBe(200);
    const seen = accountServer.received.length;
    const sent = await api.post('/api/email/accountant/send', { referenceMonth: '2025-01' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const email = await nextFinanceEmailTo(accountServer, 'accountant@example.test', seen);
    expect(email.headers.from).toContain('books@acme.test');
    expect(email.raw).toContain('financial-report-2025-01.csv');
    const row = await t.db
      .selectFrom('outgoing_emails')
      .selectAll()
      .where('id', '=', sent.body.data.messageId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'sent',
      source: 'accountant_report:2025-01',
      account_id: Number(account.accountId),
    });
  });
});

describe('durability', () => {
  it('a reset e-mail queued by an instance that stops before sending it is sent by the next one', async () => {
    // An instance without its background (it dies, as far as sending goes, right after answering).
    const first = await buildFinanceTestApp({ SMTP_URL: operator.url });
    const account = await newFinanceAccount(first);
    expect(
      (await financeClient(first.app).post('/api/auth/forgot-password', { email: account.admin.email })).status,
    ).toBe(200);
    await first.app.close(); // waits for the queued reset link to be written
    const queued = await first.db.selectFrom('outgoing_emails').select(['status', 'to_addresses']).execute();
    // The verification link of the registration, and the reset link.
    expect(queued).toEqual([
      { status: 'pending', to_addresses: JSON.stringify([account.admin.email]) },
      { status: 'pending', to_addresses: JSON.stringify([account.admin.email]) },
    ]);
    const seen = operator.received.length;
    const next = await buildFinanceTestApp(
      { SMTP_URL: operator.url },
      { sameDatabaseAs: first, background: { pollIntervalMs: 20, dailyJob: false } },
    );
    try {
      const email = await nextFinanceEmailTo(operator, account.admin.email, seen, 'Reset your password');
      expect(email.text).toContain('/reset-password?token=');
    } finally {
      await next.close();
      await first.database.close();
    }
  });
});
