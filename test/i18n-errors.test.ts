import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, newContact, newConversation, newInbox, type TestAccount } from './helpers/factories.js';
import { financeCall, newFinanceAccount, type FinanceTestAccount } from './helpers/finance-factories.js';
import { call, client, type Call, type Reply } from './helpers/http.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// API error sentences follow Accept-Language on both services, for the errors of every module:
// the same status and `code` (what programs read) in both languages, the sentence and the field
// problems in English or in Brazilian Portuguese. Success messages of the finance service too.
let chat: ChatTestApp;
let finance: FinanceTestApp;
let account: TestAccount;
let other: TestAccount;
let owner: FinanceTestAccount;

beforeAll(async () => {
  chat = await buildChatTestApp();
  finance = await buildFinanceTestApp();
  account = await newAccount(chat);
  other = await newAccount(chat, 'Other');
  owner = await newFinanceAccount(finance);
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

const EN = { 'accept-language': 'en-US,en;q=0.9' };
const PT = { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' };

/** The same request in English and in Portuguese. */
async function inBoth(send: (headers: Record<string, string>) => Promise<Reply>): Promise<[Reply, Reply]> {
  const en = await send(EN);
  const pt = await send(PT);
  expect(pt.status, pt.text).toBe(en.status);
  return [en, pt];
}

const chatCall = (c: Omit<Call, 'headers'>) => (headers: Record<string, string>) =>
  call(chat.app, { ...c, headers: { ...headers, ...(c.body === '{' ? { 'content-type': 'application/json' } : {}) } });

/** A chat refusal in both languages: status, code, and each language's sentence (and details). */
async function chatRefusal(
  c: Omit<Call, 'headers'>,
  expected: { status: number; code: string; en: string; pt: string; details?: [object[], object[]] },
) {
  const [en, pt] = await inBoth(chatCall(c));
  expect(en.status, en.text).toBe(expected.status);
  expect(en.body).toMatchObject({ code: expected.code, error: expected.en });
  expect(pt.body).toMatchObject({ code: expected.code, error: expected.pt });
  if (expected.details) {
    expect(en.body.details).toEqual(expected.details[0]);
    expect(pt.body.details).toEqual(expected.details[1]);
  }
}

/** A finance refusal in both languages. */
async function financeRefusal(
  c: Parameters<typeof financeCall>[1],
  expected: { status: number; code: string; en: string; pt: string; details?: [object[], object[]] },
) {
  const [en, pt] = await inBoth((headers) => financeCall(finance.app, { ...c, headers }));
  expect(en.status, en.text).toBe(expected.status);
  expect(en.body).toMatchObject({ success: false, message: expected.en, error: { code: expected.code } });
  expect(pt.body).toMatchObject({ success: false, message: expected.pt, error: { code: expected.code } });
  if (expected.details) {
    expect(en.body.error.details).toEqual(expected.details[0]);
    expect(pt.body.error.details).toEqual(expected.details[1]);
  }
}

describe('chat refusals in the language of the request', () => {
  it('the ones the issue names: a missing contact, a taken e-mail, bad credentials, an agent acting as administrator', async () => {
    const admin = account.admin.token;
    await chatRefusal(
      { url: `${account.path}/contacts/2147483000`, token: admin },
      { status: 404, code: 'not_found', en: 'Contact not found', pt: 'Contato não encontrado' },
    );
    await newContact(chat, account, { name: 'Ana', email: 'ana@example.test' });
    await chatRefusal(
      {
        method: 'POST',
        url: `${account.path}/contacts`,
        token: admin,
        body: { name: 'Ana 2', email: 'ana@example.test' },
      },
      {
        status: 409,
        code: 'conflict',
        en: 'Email has already been taken',
        pt: 'O e-mail já está em uso',
        details: [
          [{ field: 'email', message: 'has already been taken' }],
          [{ field: 'email', message: 'já está em uso' }],
        ],
      },
    );
    await chatRefusal(
      { method: 'POST', url: '/auth/sign_in', body: { email: account.admin.email, password: 'not the password' } },
      { status: 401, code: 'unauthorized', en: 'Invalid login credentials', pt: 'Credenciais de login inválidas' },
    );
    const agent = await newAgent(chat, account);
    await chatRefusal(
      { method: 'POST', url: `${account.path}/teams`, token: agent.token, body: { name: 'Sales' } },
      {
        status: 403,
        code: 'forbidden',
        en: 'Only administrators of this account may do this',
        pt: 'Somente administradores desta conta podem fazer isto',
      },
    );
  });

  it("one from each module: not found (another account's ids too), conflicts and field problems", async () => {
    const admin = account.admin.token;
    const notFound: [string, string, string][] = [
      [`${account.path}/conversations/2147483000`, 'Conversation not found', 'Conversa não encontrada'],
      [`${account.path}/inboxes/2147483000`, 'Inbox not found', 'Caixa de entrada não encontrada'],
      [`${account.path}/teams/2147483000`, 'Team not found', 'Time não encontrado'],
      [`${account.path}/campaigns/2147483000`, 'Campaign not found', 'Campanha não encontrada'],
      [`${account.path}/custom_filters/2147483000`, 'Custom filter not found', 'Filtro personalizado não encontrado'],
      [`${account.path}/agent_bots/2147483000`, 'Agent bot not found', 'Bot de agente não encontrado'],
      [`${account.path}/automation_rules/2147483000`, 'Automation rule not found', 'Regra de automação não encontrada'],
      [`${account.path}/pipelines/2147483000`, 'Pipeline not found', 'Funil não encontrado'],
      [`${account.path}/pipeline_cards/2147483000`, 'Pipeline card not found', 'Card do funil não encontrado'],
      [
        `${account.path}/pipeline/automations/2147483000`,
        'Pipeline automation not found',
        'Automação do funil não encontrada',
      ],
      [
        `${account.path}/lead_score_rules/2147483000`,
        'Lead score rule not found',
        'Regra de pontuação de lead não encontrada',
      ],
      [`${account.path}/portals/2147483000`, 'Portal not found', 'Portal não encontrado'],
      [
        `${account.path}/integrations/hooks/2147483000`,
        'Integration hook not found',
        'Hook de integração não encontrado',
      ],
      [`${account.path}/webhooks/2147483000`, 'Webhook not found', 'Webhook não encontrado'],
      [
        `${account.path}/custom_attribute_definitions/2147483000`,
        'Custom attribute definition not found',
        'Definição de atributo personalizado não encontrada',
      ],
      [`${account.path}/canned_responses/2147483000`, 'Canned response not found', 'Resposta pronta não encontrada'],
      [`${account.path}/labels/2147483000`, 'Label not found', 'Etiqueta não encontrada'],
    ];
    for (const [url, en, pt] of notFound) {
      const method = /\/(custom_filters|canned_responses|labels|webhooks)\//.test(url) ? 'PATCH' : 'GET';
      await chatRefusal(
        { method, url, token: admin, ...(method === 'PATCH' ? { body: {} } : {}) },
        { status: 404, code: 'not_found', en, pt },
      );
    }
    // Another account's conversation is not found either, in both languages.
    const theirs = await newConversation(chat, other);
    await chatRefusal(
      { url: `${account.path}/conversations/${theirs.id}`, token: admin },
      { status: 404, code: 'not_found', en: 'Conversation not found', pt: 'Conversa não encontrada' },
    );

    await client(chat.app, admin).post(`${account.path}/labels`, { title: 'vip' });
    await chatRefusal(
      { method: 'POST', url: `${account.path}/labels`, token: admin, body: { title: 'vip' } },
      { status: 409, code: 'conflict', en: 'Title has already been taken', pt: 'O título já está em uso' },
    );
    await chatRefusal(
      {
        method: 'POST',
        url: `${account.path}/canned_responses`,
        token: admin,
        body: { short_code: 'two words', content: 'Hi' },
      },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'short_code must not contain spaces',
        pt: 'short_code não pode conter espaços',
        details: [
          [{ field: 'short_code', message: 'must not contain spaces' }],
          [{ field: 'short_code', message: 'não pode conter espaços' }],
        ],
      },
    );
    const inbox = await newInbox(chat, account, { type: 'api' });
    const conversation = await newConversation(chat, account, { inboxId: inbox.id });
    await chatRefusal(
      {
        method: 'POST',
        url: `${account.path}/conversations/${conversation.id}/messages`,
        token: admin,
        body: { content: 'psst', message_type: 'incoming', private: true },
      },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'private is only allowed on outgoing messages and activities',
        pt: 'private só é permitido em mensagens de saída e atividades',
      },
    );
    await chatRefusal(
      { url: `/api/v2/accounts/${account.id}/reports/summary?type=account`, token: admin },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'since and until are required',
        pt: 'since e until são obrigatórios',
      },
    );
    await chatRefusal(
      {
        method: 'POST',
        url: `${account.path}/conversations/filter`,
        token: admin,
        body: { payload: [{ attribute_key: 'mood', filter_operator: 'equal_to', values: ['x'] }] },
      },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: "payload.0.attribute_key 'mood' is not a supported attribute",
        pt: "payload.0.attribute_key 'mood' não é um atributo aceito",
      },
    );
  });

  it('time ranges: a missing end, and an end before its start', async () => {
    const admin = account.admin.token;
    const v2 = account.path.replace('/api/v1/', '/api/v2/');
    await chatRefusal(
      { url: `${v2}/reports/summary?type=account`, token: admin },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'since and until are required',
        pt: 'since e until são obrigatórios',
      },
    );
    await chatRefusal(
      { url: `${v2}/reports/summary?type=account&since=2031-09-15&until=2031-09-01`, token: admin },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'until must not be before since',
        pt: 'until não pode ser anterior a since',
        details: [
          [
            { field: 'since', message: 'must not be after until' },
            { field: 'until', message: 'must not be before since' },
          ],
          [
            { field: 'since', message: 'não pode ser posterior a until' },
            { field: 'until', message: 'não pode ser anterior a since' },
          ],
        ],
      },
    );
  });

  it('the platform and public interfaces, password links, and the generic refusals', async () => {
    await chatRefusal(
      { url: '/platform/api/v1/accounts/2147483000', token: chat.platformToken },
      {
        status: 404,
        code: 'not_found',
        en: "Account not found for this platform app: an app manages only the accounts it created (those made with cli.js belong to the installation's first platform app)",
        pt: 'Conta não encontrada para este app da plataforma: um app gerencia só as contas que criou (as criadas com cli.js pertencem ao primeiro app da plataforma da instalação)',
      },
    );
    await chatRefusal(
      { method: 'POST', url: '/public/api/v1/inboxes/no-such-inbox/contacts', body: {} },
      { status: 404, code: 'not_found', en: 'Inbox not found', pt: 'Caixa de entrada não encontrada' },
    );
    await chatRefusal(
      {
        method: 'PUT',
        url: '/auth/password',
        body: { reset_password_token: 'nope', password: 'a long password', password_confirmation: 'a long password' },
      },
      {
        status: 422,
        code: 'invalid_reset_token',
        en: 'This link is invalid, was already used or has expired',
        pt: 'Este link é inválido, já foi usado ou expirou',
      },
    );
    await chatRefusal(
      { url: `${account.path}/contacts` },
      {
        status: 401,
        code: 'unauthorized',
        en: 'Invalid or missing access token',
        pt: 'Token de acesso inválido ou ausente',
      },
    );
    await chatRefusal(
      { url: '/api/v1/nothing-here' },
      {
        status: 404,
        code: 'not_found',
        en: 'Route GET /api/v1/nothing-here not found',
        pt: 'Rota GET /api/v1/nothing-here não encontrada',
      },
    );
    await chatRefusal(
      { method: 'POST', url: `${account.path}/labels`, token: account.admin.token, body: '{' },
      {
        status: 400,
        code: 'malformed_body',
        en: 'The request body is not valid JSON',
        pt: 'O corpo da requisição não é um JSON válido',
      },
    );
  });
});

describe('finance refusals and answers in the language of the request', () => {
  it('the ones the issue names: a missing token, bad credentials, an agent acting as administrator', async () => {
    await financeRefusal(
      { url: '/api/accounts/current' },
      { status: 401, code: 'unauthorized', en: 'Missing access token', pt: 'Token de acesso ausente' },
    );
    await financeRefusal(
      { method: 'POST', url: '/api/auth/login', body: { email: owner.admin.email, password: 'not the password' } },
      { status: 401, code: 'invalid_credentials', en: 'Invalid e-mail or password', pt: 'E-mail ou senha inválidos' },
    );
    await financeRefusal(
      { url: '/api/accounts/current', token: 'not-a-jwt' },
      {
        status: 401,
        code: 'unauthorized',
        en: 'Invalid or expired access token',
        pt: 'Token de acesso inválido ou expirado',
      },
    );
  });

  it('one from each module: records, transitions, passwords, invitations, SMTP, the accountant', async () => {
    const token = owner.admin.accessToken;
    for (const [url, en, pt] of [
      ['/api/bills/2147483000', 'Bill not found', 'Conta não encontrada'],
      ['/api/invoices/2147483000', 'Invoice not found', 'Fatura não encontrada'],
      ['/api/contracts/2147483000', 'Contract not found', 'Contrato não encontrado'],
      ['/api/transactions/2147483000', 'Transaction not found', 'Transação não encontrada'],
    ])
      await financeRefusal({ url, token }, { status: 404, code: 'not_found', en, pt });
    await financeRefusal(
      { method: 'DELETE', url: '/api/notifications/2147483000', token },
      { status: 404, code: 'not_found', en: 'Notification not found', pt: 'Notificação não encontrada' },
    );

    const bill = await financeCall(finance.app, {
      method: 'POST',
      url: '/api/bills',
      token,
      body: { supplier: 'Power Co', amount: 10, dueDate: '2030-01-10' },
      headers: PT,
    });
    expect(bill.status, bill.text).toBe(201);
    expect(bill.body.message).toBe('Conta criada');
    const paid = await financeCall(finance.app, { method: 'POST', url: `/api/bills/${bill.body.data.id}/pay`, token });
    expect(paid.body.message).toBe('Bill paid');
    await financeRefusal(
      { method: 'POST', url: `/api/bills/${bill.body.data.id}/pay`, token },
      {
        status: 409,
        code: 'invalid_transition',
        en: 'This bill is paid: only open bills can be paid',
        pt: 'Esta conta está com status paid: só contas com status open podem ser pagas',
        details: [[{ field: 'status', message: 'is paid' }], [{ field: 'status', message: 'é paid' }]],
      },
    );
    await financeRefusal(
      { method: 'POST', url: '/api/transactions', token, body: { kind: 'income', amount: 1.234, date: '2030-01-10' } },
      {
        status: 422,
        code: 'unprocessable_entity',
        en: 'amount must be a decimal number with at most 2 decimal places',
        pt: 'amount deve ser um número decimal com no máximo 2 casas decimais',
      },
    );
    await financeRefusal(
      { method: 'POST', url: '/api/auth/reset-password', body: { token: 'nope', password: 'a long password' } },
      {
        status: 422,
        code: 'invalid_reset_token',
        en: 'The reset link is invalid, was already used or has expired',
        pt: 'O link de redefinição é inválido, já foi usado ou expirou',
      },
    );
    await financeRefusal(
      { url: '/api/auth/invitations/nope' },
      {
        status: 422,
        code: 'invalid_invitation',
        en: 'The invitation link is invalid, was already used, was revoked or has expired',
        pt: 'O link do convite é inválido, já foi usado, foi revogado ou expirou',
      },
    );
    await financeRefusal(
      { method: 'POST', url: '/api/email/smtp/test', token },
      {
        status: 422,
        code: 'smtp_not_configured',
        en: 'SMTP is not configured for this account: save it with POST /api/email/smtp',
        pt: 'O SMTP não está configurado para esta conta: salve-o com POST /api/email/smtp',
      },
    );
    await financeRefusal(
      { method: 'POST', url: '/api/email/accountant/send', token, body: { referenceMonth: '2020-01' } },
      {
        status: 422,
        code: 'accountant_not_configured',
        en: 'The accountant is not configured for this account: save it with POST /api/email/accountant',
        pt: 'O contador não está configurado para esta conta: salve-o com POST /api/email/accountant',
      },
    );
    const [en, pt] = await inBoth((headers) =>
      financeCall(finance.app, { method: 'POST', url: '/api/notifications/read-all', token, headers }),
    );
    expect(en.body.message).toBe('All notifications marked as read');
    expect(pt.body.message).toBe('Todas as notificações foram marcadas como lidas');
  });
});
