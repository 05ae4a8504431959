import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from './helpers/db.js';
import { newAccount, newContact, newConversation, newInbox, type TestAccount } from './helpers/factories.js';
import { newFinanceAccount, type FinanceTestAccount } from './helpers/finance-factories.js';
import { client } from './helpers/http.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

/**
 * The conversation service reads JSON bodies as Rails reads parameters (docs/spec/decisions.md §1, issue 10),
 * once, in the validation layer (core/http/body-shape.ts `compileRailsReader`): numeric text for
 * integers, "true"/"false" for booleans, one value for a list, "" in an optional field as not given.
 * What still does not fit is the same 422 as before. The finance service takes bodies as sent.
 */
let chat: ChatTestApp;
let finance: FinanceTestApp;
let account: TestAccount;
let financeAccount: FinanceTestAccount;

beforeAll(async () => {
  chat = await buildChatTestApp();
  finance = await buildFinanceTestApp();
  account = await newAccount(chat);
  financeAccount = await newFinanceAccount(finance);
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

describe('Rails-like JSON bodies (conversation service)', () => {
  it('take ids as text and "" for every optional field left empty, as the n8n node sends a contact', async () => {
    const api = client(chat.app, account.admin.token);
    const inbox = await newInbox(chat, account);
    const res = await api.post(`${account.path}/contacts`, {
      inbox_id: String(inbox.id),
      name: 'From n8n',
      email: '',
      phone_number: '',
      identifier: '',
      avatar_url: '',
      blocked: 'false',
      source_id: '',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.payload.contact).toMatchObject({
      name: 'From n8n',
      email: null,
      phone_number: null,
      identifier: null,
      blocked: false,
    });
    expect(res.body.payload.contact_inbox.inbox.id).toBe(inbox.id);
    // On an update, "" leaves the field as it was (null is how to clear it).
    const id = res.body.payload.contact.id;
    await api.patch(`${account.path}/contacts/${id}`, { email: 'kept@example.test' });
    const kept = await api.patch(`${account.path}/contacts/${id}`, { email: '', name: '', blocked: 'TRUE' });
    expect(kept.body.payload).toMatchObject({ email: 'kept@example.test', name: 'From n8n', blocked: true });
    expect((await api.patch(`${account.path}/contacts/${id}`, { email: null })).body.payload.email).toBeNull();
  });

  it('take booleans as "true"/"false", one value for a list, and read nested objects the same way', async () => {
    const api = client(chat.app, account.admin.token);
    const inbox = await api.post(`${account.path}/inboxes`, {
      name: 'Nested',
      greeting_enabled: 'true',
      enable_auto_assignment: 'false',
      channel: { type: 'api', webhook_url: '', hmac_mandatory: 'false' },
    });
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body).toMatchObject({ greeting_enabled: true, enable_auto_assignment: false, webhook_url: null });
    const conversation = await newConversation(chat, account, { inboxId: inbox.body.id });
    const note = await api.post(`${account.path}/conversations/${conversation.id}/messages`, {
      content: 'Internal',
      private: 'true',
    });
    expect(note.body.private).toBe(true);
    const labels = await api.post(`${account.path}/conversations/${conversation.id}/labels`, { labels: 'VIP' });
    expect(labels.body).toEqual({ payload: ['vip'] });
    const agent = (
      await api.post(`${account.path}/agents`, { name: 'A', email: 'rails-agent@example.test', role: 'agent' })
    ).body;
    const members = await api.post(`${account.path}/inbox_members`, {
      inbox_id: String(inbox.body.id),
      user_ids: String(agent.id),
    });
    expect(members.status, members.text).toBe(200);
    expect(members.body.payload.map((m: { id: number }) => m.id)).toContain(agent.id);
    const filtered = await api.post(`${account.path}/conversations/filter`, {
      payload: { attribute_key: 'status', filter_operator: 'equal_to', values: 'open' },
    });
    expect(filtered.status, filtered.text).toBe(200);
  });

  it('read page=0 as the first page', async () => {
    const api = client(chat.app, account.admin.token);
    await newContact(chat, account, { name: 'Paged' });
    for (const url of [
      `${account.path}/contacts?page=0`,
      `${account.path}/contacts/search?q=Paged&page=0`,
      `${account.path}/conversations?page=0`,
    ]) {
      const res = await api.get(url);
      expect(res.status, url).toBe(200);
    }
    expect((await api.get(`${account.path}/contacts?page=0`)).body.meta.current_page).toBe(1);
  });

  it('still answer 422 for what does not convert, writing nothing', async () => {
    const api = client(chat.app, account.admin.token);
    const inbox = await newInbox(chat, account);
    const before = await countRows(chat.db, 'contacts');
    for (const body of [
      { inbox_id: '12abc' },
      { inbox_id: '1.5' },
      { inbox_id: ' ' },
      { inbox_id: true },
      { name: 42 },
      { blocked: 'yes' },
      { blocked: 1 },
      { custom_attributes: 'x' },
      { inbox_id: String(inbox.id), source_id: 42 },
    ]) {
      const res = await api.post(`${account.path}/contacts`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: expect.any(Array) });
    }
    // A required field left "" is still missing.
    const conversation = await api.post(`${account.path}/conversations`, { inbox_id: '', source_id: 'x' });
    expect(conversation.status).toBe(422);
    expect(await countRows(chat.db, 'contacts')).toBe(before);
    expect((await api.get(`${account.path}/contacts?page=-1`)).status).toBe(422);
  });
});

describe('the finance service', () => {
  it('takes JSON bodies as sent: text in a number field is a 422', async () => {
    const res = await finance.app.inject({
      method: 'POST',
      url: '/api/bills',
      headers: { authorization: `Bearer ${financeAccount.admin.accessToken}` },
      payload: { supplier: 'Power Co', amount: '12', dueDate: '2030-01-10' },
    });
    expect(res.statusCode, res.body).toBe(422);
    const accepted = await finance.app.inject({
      method: 'POST',
      url: '/api/bills',
      headers: { authorization: `Bearer ${financeAccount.admin.accessToken}` },
      payload: { supplier: 'Power Co', amount: 12, dueDate: '2030-01-10' },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});
