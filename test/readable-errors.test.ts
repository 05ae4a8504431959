import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from './helpers/factories.js';
import { call, client } from './helpers/http.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// Refusals a person can read: one sentence per field naming it, in English or, when the request
// asks for it (Accept-Language), Brazilian Portuguese; never a schema's inner words.
let chat: ChatTestApp;
let finance: FinanceTestApp;
let account: TestAccount;

beforeAll(async () => {
  chat = await buildChatTestApp();
  finance = await buildFinanceTestApp();
  account = await newAccount(chat);
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

const SCHEMA_WORDS = /anyOf|oneOf|must match|must NOT|must be equal to|must have required|schema|\bstring\b|integer/;

describe('validation errors', () => {
  it('name each field with a sentence: formats, unions, lists of values, lengths, types', async () => {
    const api = client(chat.app, account.admin.token);
    const contact = await api.post(`${account.path}/contacts`, { email: 'nope', name: { x: 1 }, phone_number: '123' });
    expect(contact.status).toBe(422);
    expect(contact.body.details).toEqual([
      { field: 'name', message: 'must be text' },
      { field: 'email', message: 'must be a valid e-mail address' },
      { field: 'phone_number', message: 'is not in the expected form (for example +5511999990000)' },
    ]);
    expect(contact.body.error).toBe(
      'Invalid request: name must be text; email must be a valid e-mail address; phone_number is not in the expected form (for example +5511999990000)',
    );

    const inbox = await api.post(`${account.path}/inboxes`, { name: '', channel: { type: 'fax' } });
    expect(inbox.body.details).toEqual([
      { field: 'name', message: 'must not be empty' },
      {
        field: 'channel.type',
        message: 'must be one of: web_widget, api, email, sms, whatsapp, telegram, facebook, instagram',
      },
    ]);
    const filter = await api.post(`${account.path}/conversations/filter`, {
      payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: [{}] }],
    });
    expect(filter.body.details).toEqual([
      { field: 'payload.0.values.0', message: 'must be text or a number or true or false or null' },
    ]);
    const page = await api.get(`${account.path}/contacts?page=abc`);
    expect(page.body.details).toEqual([{ field: 'page', message: 'must be a whole number' }]);
    for (const res of [contact, inbox, filter, page]) expect(JSON.stringify(res.body)).not.toMatch(SCHEMA_WORDS);
  });

  it('answer in Brazilian Portuguese when the request prefers it, on both services', async () => {
    const pt = { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8' };
    const login = await call(finance.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'x', password: 1 },
      headers: pt,
    });
    expect(login.status).toBe(422);
    expect(login.body).toMatchObject({
      success: false,
      message: 'Requisição inválida: email deve ter pelo menos 3 caracteres; password deve ser texto',
      error: {
        code: 'validation_failed',
        details: [
          { field: 'email', message: 'deve ter pelo menos 3 caracteres' },
          { field: 'password', message: 'deve ser texto' },
        ],
      },
    });
    const contact = await call(chat.app, {
      method: 'POST',
      url: `${account.path}/contacts`,
      body: { email: 'nope' },
      headers: { ...pt, api_access_token: account.admin.token },
    });
    expect(contact.body.details).toEqual([{ field: 'email', message: 'deve ser um endereço de e-mail válido' }]);
    const anonymous = await call(chat.app, { url: `${account.path}/contacts`, headers: pt });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('Token de acesso inválido ou ausente');
    const nowhere = await call(chat.app, { url: '/api/v1/nowhere', headers: pt });
    expect(nowhere.body.error).toBe('Rota GET /api/v1/nowhere não encontrada');
    // English otherwise, whatever else is asked for.
    const french = await call(chat.app, { url: '/api/v1/nowhere', headers: { 'accept-language': 'fr-FR' } });
    expect(french.body.error).toBe('Route GET /api/v1/nowhere not found');
  });
});
