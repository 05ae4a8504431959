import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEmail, type ReceivedEmail } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  ensureFinanceSetup,
  financeClient,
  newFinanceAccount,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';

/** A real SMTP server that accepts only user "mailer" with password "smtp-secret". */
class AuthSmtpServer {
  readonly received: ReceivedEmail[] = [];
  private readonly server = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'mailer' && auth.password === 'smtp-secret'
        ? callback(null, { user: auth.username })
        : callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 })),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        this.received.push(
          parseEmail(Buffer.concat(chunks).toString('utf8'), {
            from,
            to: session.envelope.rcptTo.map((r) => r.address),
          }),
        );
        callback();
      });
    },
  });
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }
  get port() {
    return (this.server.server.address() as AddressInfo).port;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let smtp: AuthSmtpServer;
let t: FinanceTestApp;
beforeAll(async () => {
  smtp = await new AuthSmtpServer().start();
  t = await buildFinanceTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  await ensureFinanceSetup(t);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const config = () => ({
  host: '127.0.0.1',
  port: smtp.port,
  secure: false,
  user: 'mailer',
  password: 'smtp-secret',
  fromName: 'Acme Billing',
  fromEmail: 'Billing@Acme.test',
});
const smtpRow = (account: FinanceTestAccount) =>
  t.db.selectFrom('smtp_settings').selectAll().where('account_id', '=', Number(account.accountId)).executeTakeFirst();

describe('SMTP configuration', () => {
  it('is null until saved; saving stores the password encrypted and never returns it', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    expect((await c.get('/api/email/smtp')).body).toEqual({
      success: true,
      data: null,
      message: 'SMTP is not configured',
    });

    const saved = await c.post('/api/email/smtp', config());
    expect(saved.status).toBe(200);
    const expected = {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: 'mailer',
      fromName: 'Acme Billing',
      fromEmail: 'Billing@Acme.test',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    };
    expect(saved.body).toEqual({ success: true, message: 'SMTP configuration saved', data: expected });
    const read = await c.get('/api/email/smtp');
    expect(read.body).toEqual({ success: true, data: expected });
    expect(read.text).not.toContain('smtp-secret');

    const row = (await smtpRow(account))!;
    expect(row.password_encrypted).not.toContain('smtp-secret');
    expect(row.password_encrypted).toMatch(/^v1\./);
  });

  it('requires the password on the first save only; a later save without it keeps the old one', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    const { password: _pw, ...withoutPassword } = config();
    const first = await c.post('/api/email/smtp', withoutPassword);
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ success: false, error: { details: [{ field: 'password' }] } });
    expect(await smtpRow(account)).toBeUndefined();

    expect((await c.post('/api/email/smtp', config())).status).toBe(200);
    const sealed = (await smtpRow(account))!.password_encrypted;
    const updated = await c.post('/api/email/smtp', { ...withoutPassword, fromName: 'Renamed', port: smtp.port });
    expect(updated.status).toBe(200);
    expect(updated.body.data.fromName).toBe('Renamed');
    expect((await smtpRow(account))!.password_encrypted).toBe(sealed);
    // The kept password still authenticates.
    expect((await c.post('/api/email/smtp/test')).status).toBe(200);
  });

  it('sends a test e-mail to the calling admin with the saved configuration', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    await c.post('/api/email/smtp', config());
    const seen = smtp.received.length;
    const res = await c.post('/api/email/smtp/test');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: expect.stringContaining(`Test e-mail sent to ${account.admin.email}`),
      data: { to: account.admin.email, messageId: expect.any(String), response: expect.stringMatching(/^250/) },
    });
    const email = smtp.received.slice(seen).find((e) => e.to.includes(account.admin.email));
    expect(email).toBeDefined();
    expect(email!.headers.from).toBe('Acme Billing <Billing@acme.test>'); // nodemailer lower-cases the domain
    expect(email!.subject).toBe('Ponte finance: SMTP test');
  });

  it("answers 422 with the server's answer when sending fails, and 422 when nothing is saved", async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    const none = await c.post('/api/email/smtp/test');
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ success: false, error: { code: 'smtp_not_configured' } });

    await c.post('/api/email/smtp', { ...config(), password: 'wrong-secret' });
    const refused = await c.post('/api/email/smtp/test');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'smtp_send_failed' } });
    expect(refused.body.message).toContain('Invalid username or password');
  });

  it('refuses to connect to private addresses unless allowed (WEBHOOK_ALLOWED_HOSTS)', async () => {
    const strict = await buildFinanceTestApp();
    try {
      await ensureFinanceSetup(strict);
      const account = await newFinanceAccount(strict);
      const c = financeClient(strict.app, account.admin.accessToken);
      // Refused when saved (the literal host, core/webhooks/outbound-policy.ts)...
      const saved = await c.post('/api/email/smtp', config());
      expect(saved.status).toBe(422);
      expect(saved.body.error.details).toEqual([
        { field: 'host', message: 'destination 127.0.0.1 is not a public address' },
      ]);
      // ...and when called: a row saved while the address was allowed (WEBHOOK_ALLOWED_HOSTS changed since).
      expect((await c.post('/api/email/smtp', { ...config(), host: 'mail.example.com' })).status).toBe(200);
      await strict.db
        .updateTable('smtp_settings')
        .set({ host: '127.0.0.1' })
        .where('account_id', '=', Number(account.accountId))
        .execute();
      const res = await c.post('/api/email/smtp/test');
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('smtp_send_failed');
      expect(res.body.message).toContain('not a public address');
      expect(smtp.received.some((e) => e.to.includes(account.admin.email))).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('deletes the configuration; deleting again is 404', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    await c.post('/api/email/smtp', config());
    const res = await c.delete('/api/email/smtp');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null, message: 'SMTP configuration removed' });
    expect(await smtpRow(account)).toBeUndefined();
    expect((await c.get('/api/email/smtp')).body.data).toBeNull();
    const again = await c.delete('/api/email/smtp');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, error: { code: 'not_found' } });
  });

  it('keeps each account to its own configuration', async () => {
    const a = await newFinanceAccount(t);
    const b = await newFinanceAccount(t);
    await financeClient(t.app, a.admin.accessToken).post('/api/email/smtp', config());
    const cb = financeClient(t.app, b.admin.accessToken);
    expect((await cb.get('/api/email/smtp')).body.data).toBeNull();
    expect((await cb.delete('/api/email/smtp')).status).toBe(404);
    expect((await cb.post('/api/email/smtp/test')).body.error.code).toBe('smtp_not_configured');
    expect(await smtpRow(a)).toBeDefined();
  });

  it('is for administrators only: an agent gets 403, no token 401', async () => {
    const account = await newFinanceAccount(t);
    await financeClient(t.app, account.admin.accessToken).post('/api/email/smtp', config());
    const agent = await addFinanceMember(t, account, 'agent');
    const c = financeClient(t.app, agent.accessToken);
    const before = await smtpRow(account);
    for (const res of [
      await c.get('/api/email/smtp'),
      await c.post('/api/email/smtp', config()),
      await c.post('/api/email/smtp/test'),
      await c.delete('/api/email/smtp'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    expect(await smtpRow(account)).toEqual(before);
    const anon = financeClient(t.app);
    for (const res of [
      await anon.get('/api/email/smtp'),
      await anon.post('/api/email/smtp', config()),
      await anon.post('/api/email/smtp/test'),
      await anon.delete('/api/email/smtp'),
    ]) {
      expect(res.status).toBe(401);
    }
  });

  it('answers bad input with 422 and changes nothing', async () => {
    const account = await newFinanceAccount(t);
    const c = financeClient(t.app, account.admin.accessToken);
    await c.post('/api/email/smtp', config());
    const before = await smtpRow(account);
    const bad: unknown[] = [
      {},
      { ...config(), host: '' },
      { ...config(), host: 'smtp example.com' },
      { ...config(), host: 'h'.repeat(256) },
      { ...config(), port: 0 },
      { ...config(), port: 70000 },
      { ...config(), port: '587' },
      { ...config(), secure: 'yes' },
      { ...config(), user: '' },
      { ...config(), user: ' ' },
      { ...config(), password: '' },
      { ...config(), password: 42 },
      { ...config(), fromEmail: 'not-an-email' },
      { ...config(), fromName: 'n'.repeat(201) },
    ];
    for (const body of bad) {
      const res = await c.post('/api/email/smtp', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({
        success: false,
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
    }
    expect(await smtpRow(account)).toEqual(before);
  });
});
