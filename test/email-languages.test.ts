import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { financeClient, newFinanceAccount } from './helpers/finance-factories.js';
import { call, client } from './helpers/http.js';
import { TestSmtpServer, type ReceivedEmail } from './helpers/smtp.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// E-mails people receive are in their language: an account's locale for invitations to it, the
// request's Accept-Language for what a request asks for (a forgotten password, an invitation sent
// by an administrator). English otherwise. Sent through a real SMTP server.
let smtp: TestSmtpServer;
let chat: ChatTestApp;
let finance: FinanceTestApp;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  chat = await buildChatTestApp({ SMTP_URL: smtp.url }, { background: { pollIntervalMs: 20 } });
  finance = await buildFinanceTestApp({ SMTP_URL: smtp.url }, { background: { pollIntervalMs: 20, dailyJob: false } });
});
afterAll(async () => {
  await chat.close();
  await finance.close();
  await smtp.stop();
});

const unique = () => randomBytes(5).toString('hex');
const PT = { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' };

async function mailTo(to: string): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = smtp.received.find((e) => e.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

async function chatAccount(locale: string) {
  const platform = client(chat.app, chat.platformToken);
  const account = (await platform.post('/platform/api/v1/accounts', { name: `Loja ${unique()}`, locale })).body;
  const admin = (
    await platform.post('/platform/api/v1/users', {
      name: 'Ana Admin',
      email: `ana-${unique()}@example.test`,
      password: 'a long enough password',
    })
  ).body;
  await platform.post(`/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: admin.id,
    role: 'administrator',
  });
  return { path: `/api/v1/accounts/${account.id}`, token: admin.access_token as string };
}

describe('e-mails in the reader’s language', () => {
  it("invites agents in the account's language", async () => {
    for (const [locale, subject, body] of [
      ['pt_BR', /^Participe de Loja \w+ no Ponte$/, 'adicionou você'],
      ['en', /^Join Loja \w+ on Ponte$/, 'added you to'],
    ] as const) {
      const account = await chatAccount(locale);
      const email = `agent-${unique()}@example.test`;
      const res = await client(chat.app, account.token).post(`${account.path}/agents`, {
        name: 'Bruno',
        email,
        role: 'agent',
      });
      expect(res.status, res.text).toBe(200);
      const mail = await mailTo(email);
      expect(mail.subject).toMatch(subject);
      expect(mail.text).toContain(body);
    }
  });

  it('answers a forgotten password in the language of the request, on both services', async () => {
    const account = await chatAccount('en');
    const email = `carla-${unique()}@example.test`;
    await client(chat.app, account.token).post(`${account.path}/agents`, { name: 'Carla', email, role: 'agent' });
    await mailTo(email); // the invitation
    smtp.received.length = 0;
    const forgot = await call(chat.app, { method: 'POST', url: '/auth/password', body: { email }, headers: PT });
    expect(forgot.status).toBe(200);
    const reset = await mailTo(email);
    expect(reset.subject).toBe('Redefina sua senha do Ponte');
    expect(reset.text).toContain('Abra este link em até uma hora');

    const owner = (await newFinanceAccount(finance)).admin;
    await mailTo(owner.email); // the registration's verification link
    smtp.received.length = 0;
    const financeForgot = await call(finance.app, {
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: owner.email },
      headers: PT,
    });
    expect(financeForgot.status).toBe(200);
    const financeReset = await mailTo(owner.email);
    expect(financeReset.subject).toBe('Redefina sua senha');
    expect(financeReset.text).toContain('escolher uma nova senha');
  });

  it('sends the verification link of a finance registration in the language of the request', async () => {
    const email = `vera-${unique()}@example.test`;
    const res = await call(finance.app, {
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: 'correct horse battery', fullName: 'Vera' },
      headers: PT,
    });
    expect(res.status, res.text).toBe(201);
    const mail = await mailTo(email);
    expect(mail.text).toContain('Para confirmar que este endereço é seu');
    expect(mail.text).toContain('http://finance.test/verify-email?token=');
  });

  it("writes a finance invitation in the inviting administrator's language", async () => {
    const owner = (await newFinanceAccount(finance)).admin;
    const email = `dora-${unique()}@example.test`;
    const res = await financeClient(finance.app, owner.accessToken).post('/api/accounts/members', {
      email,
      role: 'agent',
    });
    expect([200, 201]).toContain(res.status);
    expect((await mailTo(email)).subject).toMatch(/^Invitation to join /);
    const other = `eva-${unique()}@example.test`;
    const pt = await call(finance.app, {
      method: 'POST',
      url: '/api/accounts/members',
      body: { email: other, role: 'agent' },
      headers: { ...PT, authorization: `Bearer ${owner.accessToken}` },
    });
    expect([200, 201]).toContain(pt.status);
    const mail = await mailTo(other);
    expect(mail.subject).toMatch(/^Convite para participar de /);
    expect(mail.text).toContain('convidou você');
  });
});
