import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/core/http/body-shape.js';
import { newAccount, newInbox, type TestAccount } from './helpers/factories.js';
import { newFinanceAccount, type FinanceTestAccount } from './helpers/finance-factories.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

/**
 * Deeply nested JSON (security review: ~5,000 levels answered 500 from a stack overflow, on
 * unauthenticated public routes too): refused at parse time with a 400 on both services, before any
 * route, authentication or validation sees it.
 */

const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

let chat: ChatTestApp;
let finance: FinanceTestApp;
let account: TestAccount;
let financeAccount: FinanceTestAccount;
let inboxIdentifier: string;

beforeAll(async () => {
  chat = await buildChatTestApp();
  finance = await buildFinanceTestApp();
  account = await newAccount(chat);
  inboxIdentifier = (await newInbox(chat, account)).inbox_identifier!;
  financeAccount = await newFinanceAccount(finance);
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

describe('JSON nesting depth', () => {
  it(`answers 400 body_too_deep beyond ${MAX_JSON_DEPTH} levels on every kind of chat route, and accepts ${MAX_JSON_DEPTH}`, async () => {
    const targets: [string, Record<string, string>][] = [
      [`/public/api/v1/inboxes/${inboxIdentifier}/contacts`, {}],
      ['/platform/api/v1/accounts', { api_access_token: chat.platformToken }],
      [`${account.path}/contacts`, { api_access_token: account.admin.token }],
      ['/auth/sign_in', {}],
    ];
    for (const [url, headers] of targets) {
      for (const payload of [
        nestedObject(5000),
        nestedArray(100_000),
        `{"name":"x","custom_attributes":${nestedObject(MAX_JSON_DEPTH)}}`,
      ]) {
        const res = await chat.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({
          code: 'body_too_deep',
          error: expect.stringContaining(String(MAX_JSON_DEPTH)),
        });
      }
    }
    const contacts = await chat.db.selectFrom('contacts').select('id').execute();
    // Exactly the limit is fine (the contact's custom attributes nest 63 levels under the body).
    const ok = await chat.app.inject({
      method: 'POST',
      url: `${account.path}/contacts`,
      headers: { api_access_token: account.admin.token, 'content-type': 'application/json' },
      payload: `{"name":"Deep","custom_attributes":${nestedObject(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await chat.db.selectFrom('contacts').select('id').execute()).length).toBe(contacts.length + 1);
  });

  it('answers 400 in the finance envelope, on public and authenticated routes', async () => {
    for (const [url, headers] of [
      ['/api/auth/login', {}],
      ['/api/transactions', { authorization: `Bearer ${financeAccount.admin.accessToken}` }],
    ] as const) {
      const res = await finance.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: nestedArray(5000),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'body_too_deep' } });
    }
  });
});

describe('strings and paths', () => {
  it('refuses a NUL character anywhere in a path, a query or a body with 422, on both services (PostgreSQL cannot store it)', async () => {
    const headers = { api_access_token: account.admin.token };
    const cases = [
      chat.app.inject({ method: 'POST', url: `${account.path}/contacts`, headers, payload: { name: 'a\u0000b' } }),
      chat.app.inject({
        method: 'POST',
        url: `${account.path}/contacts`,
        headers,
        payload: { name: 'ok', custom_attributes: { 'k\u0000': 1 } },
      }),
      chat.app.inject({ method: 'GET', url: `${account.path}/contacts/search?q=%00`, headers }),
      chat.app.inject({ method: 'GET', url: '/public/api/v1/inboxes/%00/contacts/x/conversations/1' }),
      finance.app.inject({
        method: 'GET',
        url: '/api/transactions?category=%00',
        headers: { authorization: `Bearer ${financeAccount.admin.accessToken}` },
      }),
    ];
    const before = (await chat.db.selectFrom('contacts').select('id').execute()).length;
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code ?? res.json().error?.code).toBe('invalid_character');
    }
    expect((await chat.db.selectFrom('contacts').select('id').execute()).length).toBe(before);
  });

  it("answers a malformed or over-long path with the service error body, not the router's", async () => {
    const headers = { api_access_token: account.admin.token };
    const bad = await chat.app.inject({ method: 'GET', url: `${account.path}/inboxes/%`, headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: expect.any(String), code: 'malformed_path' });
    const long = await chat.app.inject({ method: 'GET', url: `${account.path}/inboxes/${'a'.repeat(600)}`, headers });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ code: 'uri_too_long' });
    const financeBad = await finance.app.inject({
      method: 'GET',
      url: '/api/bills/%',
      headers: { authorization: `Bearer ${financeAccount.admin.accessToken}` },
    });
    expect(financeBad.statusCode).toBe(400);
    expect(financeBad.json()).toMatchObject({ success: false, error: { code: 'malformed_path' } });
  });
});
