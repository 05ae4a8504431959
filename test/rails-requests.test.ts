import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newConversation, newInbox, type TestAccount } from './helpers/factories.js';
import { call, client } from './helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

/**
 * How the conversation service reads requests the way Rails does, for every route at once
 * (decisions/0028): a non-integer id in a path matches nothing, a request without a body is an
 * empty one, and an empty query value is not given.
 */

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let conversationId: number;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  const inbox = await newInbox(t, account);
  conversationId = (await newConversation(t, account, { inboxId: inbox.id })).id;
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, token?: string) => call(t.app, { url, token });

describe('a path segment where an integer id is expected', () => {
  it('answers 404 not_found exactly as a path that matches no route', async () => {
    // `abc` stays unknown: no route will ever be named so.
    const unknown = await get(`${account.path}/conversations/${conversationId}/no_such_thing`, account.admin.token);
    expect(unknown.status).toBe(404);
    for (const segment of ['abc', '1.5', '-1', '0', '99999999999', '1e3', ' 1']) {
      const url = `${account.path}/conversations/${encodeURIComponent(segment)}`;
      const res = await get(url, account.admin.token);
      expect(res.status, segment).toBe(404);
      expect(res.body, segment).toEqual({ error: `Route GET ${url} not found`, code: 'not_found' });
    }
    // The same without a token (it is decided before authentication), and on the account id.
    expect((await get(`${account.path}/conversations/abc`)).body.code).toBe('not_found');
    expect((await get('/api/v1/accounts/abc/conversations', account.admin.token)).status).toBe(404);
    // On every method, nested ids included; a real id still works.
    for (const method of ['PATCH', 'DELETE', 'POST'] as const) {
      const url =
        method === 'POST'
          ? `${account.path}/conversations/abc/messages`
          : `${account.path}/conversations/${conversationId}/messages/abc`;
      const res = await call(t.app, { method, url, token: account.admin.token, body: { content: 'x' } });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await get(`${account.path}/conversations/${conversationId}`, account.admin.token)).status).toBe(200);
    // Another account's conversation is a 404 too, from the lookup.
    expect((await get(`${other.path}/conversations/${conversationId}`, other.admin.token)).status).toBe(404);
  });
});

describe('a request without a body', () => {
  it('is read as an empty body where the route takes an object, so the answer names what is missing', async () => {
    const res = await call(t.app, { method: 'POST', url: `${account.path}/conversations`, token: account.admin.token });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain('inbox_id');
    // A route whose fields are all optional simply works.
    const label = await call(t.app, {
      method: 'POST',
      url: `${account.path}/conversations/${conversationId}/toggle_status`,
      token: account.admin.token,
    });
    expect(label.status, label.text).toBe(200);
    expect(label.body.payload.current_status).toBe('resolved');
  });
});

describe('an empty query value', () => {
  it('is not given where the parameter is optional, and still refused where it is required', async () => {
    const api = client(t.app, account.admin.token);
    const blank = await api.get(`${account.path}/conversations?inbox_id=&team_id=&status=all&page=`);
    expect(blank.status, blank.text).toBe(200);
    expect(blank.body.data.payload.map((c: { id: number }) => c.id)).toContain(conversationId);
    const required = await api.get('/api/v2/accounts/' + account.id + '/reports/summary?type=&since=0&until=10');
    expect(required.status).toBe(422);
    expect(required.body.details.map((d: { field: string }) => d.field)).toContain('type');
  });
});
