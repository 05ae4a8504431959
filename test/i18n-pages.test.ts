import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTextMarker } from '../src/core/i18n/catalogue.js';
import { buildHtml, buildText, type ReportData } from '../src/finance/modules/accountant/accountant-report.js';
import { newContact, newConversation, newInbox, newMessage } from './helpers/factories.js';
import {
  financeCall,
  financeClient,
  financePatch,
  loginFinance,
  newFinanceAccount,
  saveFinanceSmtp,
  TEST_PASSWORD,
} from './helpers/finance-factories.js';
import { client } from './helpers/http.js';
import { TestSmtpServer, type ReceivedEmail } from './helpers/smtp.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// Server-rendered pages and e-mails, in Portuguese by the language their link carries, the
// account's locale or the browser's; and nothing on them bypasses the catalogue: with every text
// the catalogue renders marked, no word is left unmarked on a page or in an e-mail of either
// service (the data shown is made of digits, so that any word left is one of ours).
let smtp: TestSmtpServer;
let chat: ChatTestApp;
let finance: FinanceTestApp;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  chat = await buildChatTestApp({ SMTP_URL: smtp.url }, { background: { pollIntervalMs: 20 } });
  finance = await buildFinanceTestApp(
    { SMTP_URL: smtp.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { background: { pollIntervalMs: 20, dailyJob: false } },
  );
});
afterAll(async () => {
  setTextMarker(null);
  await chat.close();
  await finance.close();
  await smtp.stop();
});

const unique = () => randomBytes(5).toString('hex');
const PT = 'pt-BR,pt;q=0.9';
let ipCount = 0;
const newIp = () => `10.77.${Math.floor(++ipCount / 250)}.${(ipCount % 250) + 1}`;

async function mailTo(to: string, subject?: RegExp): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = smtp.received.find((e) => e.to.includes(to) && (!subject || subject.test(e.subject)));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** A page as a browser asks for it: GET, or a form posted. */
async function browse(
  app: ChatTestApp['app'],
  url: string,
  options: { form?: Record<string, string>; language?: string } = {},
) {
  const res = await app.inject({
    method: options.form ? 'POST' : 'GET',
    url,
    remoteAddress: newIp(),
    headers: {
      accept: 'text/html,application/xhtml+xml',
      ...(options.language ? { 'accept-language': options.language } : {}),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
  });
  return { status: res.statusCode, html: res.body };
}

const pathOf = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');
const linkIn = (mail: ReceivedEmail, page: string) => {
  const found = new RegExp(`https?://\\S+${page}\\S*`).exec(mail.text)?.[0];
  if (!found) throw new Error(`no ${page} link in: ${mail.text}`);
  return found;
};
const tokenOf = (link: string, name: string) => new URL(link).searchParams.get(name) ?? '';

/** A chat account (locale as given) with an administrator, through the platform API. */
async function chatAccount(locale: string, name = `${Date.now() % 100000}`) {
  const platform = client(chat.app, chat.platformToken);
  const account = (await platform.post('/platform/api/v1/accounts', { name, locale })).body;
  const admin = (
    await platform.post('/platform/api/v1/users', {
      name: '1001',
      email: `admin-${unique()}@example.test`,
      password: 'a long enough password',
    })
  ).body;
  await platform.post(`/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: admin.id,
    role: 'administrator',
  });
  return {
    id: account.id as number,
    name,
    path: `/api/v1/accounts/${account.id}`,
    token: admin.access_token as string,
  };
}

/** Invites an agent to a chat account; the invitation e-mail's link. */
async function chatInvitation(account: Awaited<ReturnType<typeof chatAccount>>) {
  const email = `agent-${unique()}@example.test`;
  const res = await client(chat.app, account.token).post(`${account.path}/agents`, {
    name: '2002',
    email,
    role: 'agent',
  });
  expect(res.status, res.text).toBe(200);
  const mail = await mailTo(email);
  return { email, mail, link: linkIn(mail, '/auth/password/edit') };
}

describe('pages in Portuguese', () => {
  it('chat: the set-password page in the language of its link, else of the account, else of the browser', async () => {
    const account = await chatAccount('pt_BR', 'Loja Central');
    const { mail, link } = await chatInvitation(account);
    expect(mail.subject).toBe('Participe de Loja Central no Ponte');
    expect(tokenOf(link, 'locale')).toBe('pt-BR');

    const byLink = await browse(chat.app, pathOf(link));
    expect(byLink.status).toBe(200);
    expect(byLink.html).toContain('<html lang="pt-BR">');
    expect(byLink.html).toContain('<title>Participe de Loja Central</title>');
    expect(byLink.html).toContain('Escolha a senha de <strong>');
    expect(byLink.html).toContain('Repita a senha');
    expect(byLink.html).toContain('<button type="submit">Definir minha senha</button>');

    const token = tokenOf(link, 'reset_password_token');
    const edit = `/auth/password/edit?reset_password_token=${encodeURIComponent(token)}`;
    // An older link without the language: the account's.
    expect((await browse(chat.app, edit)).html).toContain('Definir minha senha');
    // A link in English stays English, whatever the browser prefers.
    expect((await browse(chat.app, `${edit}&locale=en`, { language: PT })).html).toContain('Set my password');

    const mismatch = await browse(chat.app, '/auth/password/edit', {
      form: { reset_password_token: token, locale: 'pt-BR', password: 'a long password', password_confirmation: 'x' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).toContain('A senha repetida não confere com a senha.');
    const done = await browse(chat.app, '/auth/password/edit', {
      form: {
        reset_password_token: token,
        locale: 'pt-BR',
        password: 'a long password',
        password_confirmation: 'a long password',
      },
    });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Sua senha foi definida.');

    const used = await browse(chat.app, `${edit}&locale=pt-BR`);
    expect(used.status).toBe(422);
    expect(used.html).toContain('Este link é inválido, já foi usado ou expirou');
    expect(used.html).toContain('<a href="new?locale=pt-BR">Peça um novo link</a>');
    const forgot = await browse(chat.app, '/auth/password/new', { language: PT });
    expect(forgot.html).toContain('<title>Esqueceu sua senha?</title>');
  });

  it('finance: the accept and reset pages in the language of their link, else of the account, else of the browser', async () => {
    const owner = await newFinanceAccount(finance, { name: 'Padaria Central' });
    const token = owner.admin.accessToken;
    await financePatch(finance.app, token, `/api/accounts/${owner.accountId}`, { locale: 'pt-BR' });
    const email = `dora-${unique()}@example.test`;
    // No Accept-Language: the e-mail (and so its link) is in the account's language.
    const invited = await financeClient(finance.app, token).post('/api/accounts/members', { email, role: 'agent' });
    expect([200, 201]).toContain(invited.status);
    expect(invited.body.message).toBe(`Invitation sent to ${email}`);
    const mail = await mailTo(email);
    expect(mail.subject).toBe('Convite para participar de Padaria Central');
    const link = linkIn(mail, '/accept-invitation');
    expect(tokenOf(link, 'locale')).toBe('pt-BR');

    const page = await browse(finance.app, pathOf(link));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="pt-BR">');
    expect(page.html).toContain('recebeu um convite para participar de <strong>Padaria Central</strong> como agente.');
    expect(page.html).toContain('<button type="submit">Aceitar o convite</button>');
    const withoutLanguage = `/accept-invitation?token=${tokenOf(link, 'token')}`;
    expect((await browse(finance.app, withoutLanguage)).html).toContain('Aceitar o convite');
    const differ = await browse(finance.app, '/accept-invitation', {
      form: { token: tokenOf(link, 'token'), locale: 'pt-BR', fullName: '3003', password: 'a long one', confirm: 'x' },
    });
    expect(differ.status).toBe(422);
    expect(differ.html).toContain('As duas senhas são diferentes.');

    const reset = await browse(finance.app, '/reset-password?token=abc&locale=pt-BR');
    expect(reset.html).toContain('<title>Escolha uma nova senha</title>');
    expect(reset.html).toContain('<button type="submit">Mudar minha senha</button>');
    const noToken = await browse(finance.app, '/reset-password', { language: PT });
    expect(noToken.html).toContain('Este link não tem token de redefinição.');
  });

  it('help center: the refusal page without a portal follows the browser', async () => {
    const res = await browse(chat.app, '/hc/no-such-portal', { language: PT });
    expect(res.status).toBe(404);
    expect(res.html).toContain('<html lang="pt-BR">');
    expect(res.html).toContain('Página não encontrada');
  });
});

/** The words of a page or an e-mail that the catalogue did not render (nor the data named). */
function unmarkedWords(content: string, data: string[] = []): string[] {
  const attributes = [...content.matchAll(/\s(?:aria-label|placeholder|title|alt)="([^"]*)"/g)].map((m) => m[1]);
  let text = `${content.replace(/<style[\s\S]*?<\/style>/g, ' ').replace(/<[^>]*>/g, ' ')} ${attributes.join(' ')}`
    .replace(/&(#\d+|[a-z]+);/g, ' ')
    .replace(/https?:\/\/[^\s⟦⟧]+/g, ' ')
    .replace(/[^\s@⟦⟧]+@[^\s@⟦⟧]+/g, ' ');
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  for (const value of data) text = text.split(value).join(' ');
  return text.match(/\p{L}{2,}/gu) ?? [];
}

describe('nothing on a page or in an e-mail bypasses the catalogue', () => {
  beforeAll(() => setTextMarker((text) => `⟦${text}⟧`));
  afterAll(() => setTextMarker(null));

  it('chat: the set-password and reset pages, the invitation, reset and automation rule e-mails', async () => {
    const account = await chatAccount('pt_BR');
    const { email, mail, link } = await chatInvitation(account);
    const token = tokenOf(link, 'reset_password_token');
    const pages = [
      await browse(chat.app, pathOf(link)),
      await browse(chat.app, '/auth/password/edit', {
        form: { reset_password_token: token, locale: 'pt-BR', password: 'short', password_confirmation: 'short' },
      }),
      await browse(chat.app, '/auth/password/edit', {
        form: { reset_password_token: token, locale: 'pt-BR', password: 'a long password', password_confirmation: 'x' },
      }),
      await browse(chat.app, '/auth/password/edit', {
        form: {
          reset_password_token: token,
          locale: 'pt-BR',
          password: 'a long password',
          password_confirmation: 'a long password',
        },
      }),
      await browse(chat.app, pathOf(link)),
      await browse(chat.app, '/auth/password/new', { language: PT }),
      await browse(chat.app, '/auth/password/new', { form: { email: 'nope', locale: 'pt-BR' } }),
      await browse(chat.app, '/auth/password/new', { form: { email, locale: 'pt-BR' } }),
    ];
    expect(pages.map((p) => p.status)).toEqual([200, 422, 422, 200, 422, 200, 422, 200]);
    for (const page of pages) expect(unmarkedWords(page.html), page.html).toEqual([]);

    const reset = await mailTo(email, /Ponte/);
    for (const each of [mail, reset])
      expect(unmarkedWords(`${each.subject}\n${each.text}`, [account.name]), each.text).toEqual([]);

    // An automation rule's e-mail, in the account's language.
    await client(chat.app, account.token).post(`${account.path}/automation_rules`, {
      name: '4004',
      event_name: 'message_created',
      conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['9999'] }],
      actions: [{ action_name: 'send_email', action_params: ['rule-watch@example.test'] }],
    });
    const test = { ...account, admin: { id: 0, email: '', token: account.token } };
    const inbox = await newInbox(chat, test, { type: 'api' }, '5005');
    await newContact(chat, test, { name: '6006', inbox_id: inbox.id, source_id: 'c-6006' });
    const conversation = await newConversation(chat, test, { inboxId: inbox.id, contactSourceId: 'c-6006' });
    await newMessage(chat, test, conversation.id, { content: '9999', message_type: 'incoming' });
    const rule = await mailTo('rule-watch@example.test');
    expect(unmarkedWords(`${rule.subject}\n${rule.text}`), rule.text).toEqual([]);
  });

  it('help center: the home, category, article, search and refusal pages', async () => {
    const account = await chatAccount('pt_BR');
    const api = client(chat.app, account.token);
    const portal = (
      await api.post(`${account.path}/portals`, {
        name: '7007',
        slug: `p-${unique()}`,
        config: { default_locale: 'pt_BR' },
      })
    ).body;
    const P = `${account.path}/portals/${portal.id}`;
    const category = (await api.post(`${P}/categories`, { name: '8008', slug: '8008', locale: 'pt_BR' })).body.payload;
    const article = await api.post(`${P}/articles`, {
      status: 'published',
      title: '9009',
      slug: '9009',
      content: '1111 2222',
      category_id: category.id,
      locale: 'pt_BR',
    });
    expect(article.status, article.text).toBe(200);
    const pages = [
      await browse(chat.app, `/hc/${portal.slug}`),
      await browse(chat.app, `/hc/${portal.slug}/pt_BR/categories/8008`),
      await browse(chat.app, `/hc/${portal.slug}/articles/9009`),
      await browse(chat.app, `/hc/${portal.slug}?q=1111`),
      await browse(chat.app, `/hc/${portal.slug}?q=3333`),
      await browse(chat.app, `/hc/${portal.slug}/articles/no-such-article`),
      await browse(chat.app, '/hc/no-such-portal', { language: PT }),
    ];
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 404, 404]);
    for (const page of pages) expect(unmarkedWords(page.html, ['1001']), page.html).toEqual([]);
  });

  it('finance: the reset and accept pages, the invitation, reset and SMTP test e-mails, notifications', async () => {
    const owner = await newFinanceAccount(finance, { name: '1212', fullName: '1313' });
    const token = owner.admin.accessToken;
    await financePatch(finance.app, token, `/api/accounts/${owner.accountId}`, { locale: 'pt-BR' });
    const email = `eva-${unique()}@example.test`;
    await financeClient(finance.app, token).post('/api/accounts/members', { email, role: 'admin' });
    const invitation = await mailTo(email);
    const link = linkIn(invitation, '/accept-invitation');
    const invitationToken = tokenOf(link, 'token');

    await saveFinanceSmtp(finance, owner, smtp);
    const tested = await financeCall(finance.app, {
      method: 'POST',
      url: '/api/email/smtp/test',
      token,
      headers: { 'accept-language': PT },
    });
    expect(tested.status, tested.text).toBe(200);
    const smtpTest = await mailTo(owner.admin.email, /SMTP/);

    await financeCall(finance.app, {
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: owner.admin.email },
      headers: { 'accept-language': PT },
    });
    const resetMail = await mailTo(owner.admin.email, /senha/);
    const resetLink = linkIn(resetMail, '/reset-password');
    const resetToken = tokenOf(resetLink, 'token');

    // An existing user is invited too: their page asks for their own password.
    const existing = await newFinanceAccount(finance, { fullName: '1414' });
    await financeClient(finance.app, token).post('/api/accounts/members', {
      email: existing.admin.email,
      role: 'agent',
    });
    const existingLink = linkIn(await mailTo(existing.admin.email, /Convite/), '/accept-invitation');

    const pages = [
      await browse(finance.app, '/reset-password', { language: PT }),
      await browse(finance.app, pathOf(resetLink)),
      await browse(finance.app, '/reset-password', {
        form: { token: resetToken, locale: 'pt-BR', password: 'a long password', confirm: 'x' },
      }),
      await browse(finance.app, '/reset-password', {
        form: { token: resetToken, locale: 'pt-BR', password: 'short', confirm: 'short' },
      }),
      await browse(finance.app, '/reset-password', {
        form: { token: 'nope', locale: 'pt-BR', password: 'a long password', confirm: 'a long password' },
      }),
      await browse(finance.app, '/reset-password', {
        form: { token: resetToken, locale: 'pt-BR', password: TEST_PASSWORD, confirm: TEST_PASSWORD },
      }),
      await browse(finance.app, pathOf(link)),
      await browse(finance.app, pathOf(existingLink)),
      await browse(finance.app, '/accept-invitation?token=nope&locale=pt-BR'),
      await browse(finance.app, '/accept-invitation', {
        form: { token: invitationToken, locale: 'pt-BR', fullName: '1515', password: 'a long one', confirm: 'x' },
      }),
      await browse(finance.app, '/accept-invitation', {
        form: {
          token: invitationToken,
          locale: 'pt-BR',
          fullName: '1515',
          password: 'a long password',
          confirm: 'a long password',
        },
      }),
    ];
    expect(pages.map((p) => p.status)).toEqual([422, 200, 422, 422, 422, 200, 200, 200, 422, 422, 200]);
    for (const page of pages) expect(unmarkedWords(page.html, ['1212']), page.html).toEqual([]);

    for (const each of [invitation, resetMail, smtpTest])
      expect(unmarkedWords(`${each.subject}\n${each.text}`, ['1212', '1313']), each.text).toEqual([]);

    // A paid bill's notification is written in the account's language when it is created (the
    // reset above ended the owner's sessions: a new one).
    const again = (await loginFinance(finance, owner.admin.email, TEST_PASSWORD)).accessToken;
    const bill = await financeClient(finance.app, again).post('/api/bills', {
      supplier: '1616',
      amount: 10,
      dueDate: '2030-01-10',
    });
    await financeClient(finance.app, again).post(`/api/bills/${bill.body.data.id}/pay`);
    const deadline = Date.now() + 10_000;
    let notices: { title: string; message: string }[] = [];
    while (notices.length === 0 && Date.now() < deadline) {
      notices = (await financeClient(finance.app, again).get('/api/notifications')).body.data.notifications;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of notices) expect(unmarkedWords(`${notice.title}\n${notice.message}`, ['1616'])).toEqual([]);
  });

  it('finance: the e-mail that verifies an address and the pages its link opens', async () => {
    const owner = await newFinanceAccount(finance, { name: '1717', fullName: '1818', verified: false });
    const mail = await mailTo(owner.admin.email, /e-mail/);
    const link = linkIn(mail, '/verify-email');
    expect(tokenOf(link, 'locale')).toBe('en');
    const token = tokenOf(link, 'token');
    const pages = [
      await browse(finance.app, '/verify-email', { language: PT }),
      await browse(finance.app, pathOf(link)),
      await browse(finance.app, '/verify-email', { form: { token: 'nope', locale: 'pt-BR' } }),
      await browse(finance.app, '/verify-email', { form: { token, locale: 'pt-BR' } }),
    ];
    expect(pages.map((p) => p.status)).toEqual([422, 200, 422, 200]);
    expect(pages[3]!.html).toContain('<html lang="pt-BR">');
    for (const page of pages) expect(unmarkedWords(page.html), page.html).toEqual([]);
    expect(unmarkedWords(`${mail.subject}\n${mail.text}`, ['1818']), mail.text).toEqual([]);
  });

  it("finance: the accountant's report e-mail, as text and HTML", () => {
    const transaction = {
      amount_cents: 12345,
      currency: 'BRL',
      date: '2030-01-05',
      category: '1818',
      status: 'completed',
    } as const;
    const report: ReportData = {
      accountName: '1919',
      language: 'pt-BR',
      referenceMonth: '2030-01',
      totals: [{ currency: 'BRL', incomeCents: 12345, expensesCents: 2345, balanceCents: 10000 }],
      transactions: [
        { ...transaction, id: 1, kind: 'income' as const, description: '1717', bill_id: null, counterparty: null },
      ],
      expenses: [
        { ...transaction, id: 2, kind: 'expense' as const, description: null, bill_id: 3, counterparty: '2020' },
      ],
      bills: [
        {
          id: 3,
          supplier: '2020',
          description: '2121',
          category: null,
          amount_cents: 2345,
          currency: 'BRL',
          due_date: '2030-01-20',
          status: 'paid',
        },
      ],
      maxRows: 50,
    };
    const data = ['1919', 'BRL', 'completed', 'paid', 'income', 'expense', 'bill'];
    expect(unmarkedWords(buildText(report), data)).toEqual([]);
    expect(unmarkedWords(buildHtml(report), data)).toEqual([]);
  });
});
