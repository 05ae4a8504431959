import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { conversationRow, countRows, outboxEvents } from '../../../../test/helpers/db.js';
import { countingQueries } from '../../../../test/helpers/query-counter.js';
import { servicesOf } from '../../../../test/helpers/reports.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let inboxId: number;
let contactId: number;
const source = 'msg-source';

const outbox = (accountId: number, name?: string) => outboxEvents(t.db, accountId, name);

const count = (table: 'messages' | 'outbox_events' | 'attachments') => countRows(t.db, table);

const conversationOf = (id: number, token = account.admin.token) =>
  client(t.app, token)
    .get(`${account.path}/conversations/${id}`)
    .then((r) => r.body);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Alice Agent');
  inboxId = (await newInbox(t, account)).id;
  await addInboxMembers(t, account, inboxId, [agent.id]);
  contactId = (await newContact(t, account, { name: 'Maria', inbox_id: inboxId, source_id: source })).contact.id;
});
afterAll(async () => {
  await t.close();
});

describe('POST messages', () => {
  it('creates an outgoing message by default and records message_created with the spec fields', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const before = (await outbox(account.id)).length;
    const res = await client(t.app, agent.token).post(`${account.path}/conversations/${c.id}/messages`, {
      content: 'How can I help?',
      echo_id: 'echo-1',
      content_attributes: { in_reply_to: null },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const m = res.body;
    expect(m).toEqual({
      id: expect.any(Number),
      content: 'How can I help?',
      account_id: account.id,
      inbox_id: inboxId,
      conversation_id: c.id,
      message_type: 1,
      content_type: 'text',
      content_attributes: { in_reply_to: null },
      additional_attributes: {},
      private: false,
      status: 'sent',
      source_id: null,
      echo_id: 'echo-1',
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      sender_type: 'User',
      sender_id: agent.id,
      sender: expect.objectContaining({ id: agent.id, name: 'Alice Agent', type: 'user' }),
      attachments: [],
    });
    expect(Math.abs(m.created_at - Date.now() / 1000)).toBeLessThan(3600);

    const events = (await outbox(account.id)).slice(before);
    expect(events.map((e) => e.name)).toEqual(['message_created']);
    const p = events[0].payload;
    expect(p).toMatchObject({
      event: 'message_created',
      id: String(m.id),
      account: { id: account.id, name: 'Acme' },
      content: 'How can I help?',
      conversation: { id: c.id, status: 'open', inbox_id: inboxId },
      sender: { id: agent.id, name: 'Alice Agent', type: 'user' },
      message_type: 'outgoing',
      content_type: 'text',
      private: false,
      inbox: { id: inboxId, name: 'Support' },
    });
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at);

    const conv = await conversationOf(c.id);
    expect(conv.first_reply_created_at).toBe(m.created_at);
    expect(conv.last_activity_at).toBe(m.created_at);
    expect(conv.messages.map((x: { id: number }) => x.id)).toEqual([m.id]);
  });

  it('an incoming message comes from the contact, starts the wait and marks the contact active; a reply ends the wait', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const incoming = await newMessage(t, account, c.id, {
      message_type: 'incoming',
      content: 'Hi there',
      source_id: 'wamid.1',
    });
    expect(incoming).toMatchObject({
      message_type: 0,
      source_id: 'wamid.1',
      sender_type: 'Contact',
      sender: { id: contactId, type: 'contact', name: 'Maria' },
    });
    let conv = await conversationOf(c.id);
    expect(conv.waiting_since).toBe(incoming.created_at);
    expect(conv.first_reply_created_at).toBeNull();
    expect(conv.unread_count).toBe(1);
    expect(conv.contact.last_activity_at).toBe(incoming.created_at);
    const created = (await outbox(account.id, 'message_created')).at(-1)!.payload;
    expect(created).toMatchObject({
      message_type: 'incoming',
      sender: { id: contactId, type: 'contact' },
      source_id: 'wamid.1',
    });

    await newMessage(t, account, c.id, { content: 'internal', private: true });
    conv = await conversationOf(c.id);
    expect(conv.waiting_since).toBe(incoming.created_at);
    expect(conv.first_reply_created_at).toBeNull();

    const reply = await newMessage(t, account, c.id, { content: 'Hello!' });
    conv = await conversationOf(c.id);
    expect(conv.waiting_since).toBeNull();
    expect(conv.first_reply_created_at).toBe(reply.created_at);
    expect(conv.last_non_activity_message.id).toBe(reply.id);
  });

  it('an incoming message reopens a resolved conversation and records the status change first', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const api = client(t.app, account.admin.token);
    await api.post(`${account.path}/conversations/${c.id}/toggle_status`, { status: 'resolved' });
    const before = (await outbox(account.id)).length;
    await newMessage(t, account, c.id, { message_type: 'incoming' });
    const events = (await outbox(account.id)).slice(before);
    expect(events.map((e) => e.name)).toEqual(['conversation_status_changed', 'message_created']);
    expect(events[0].payload.changed_attributes).toEqual([
      { status: { previous_value: 'resolved', current_value: 'open' } },
    ]);
    expect(events[1].payload.conversation.status).toBe('open');
    expect((await conversationOf(c.id)).status).toBe('open');

    const until = Math.floor(Date.now() / 1000) + 600;
    await api.post(`${account.path}/conversations/${c.id}/toggle_status`, { status: 'snoozed', snoozed_until: until });
    await newMessage(t, account, c.id, { content: 'outgoing does not wake it' });
    expect((await conversationOf(c.id)).status).toBe('snoozed');
    await newMessage(t, account, c.id, { message_type: 'incoming' });
    expect(await conversationOf(c.id)).toMatchObject({ status: 'open', snoozed_until: null });
  });

  it('activities have no sender; bots send as agent_bot', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const activity = await newMessage(t, account, c.id, { message_type: 'activity', content: 'Assigned to Alice' });
    expect(activity).toMatchObject({ message_type: 2, sender: null, sender_type: null, sender_id: null });
    const botRes = await client(t.app, account.admin.token).post(`${account.path}/agent_bots`, {
      name: 'Helper',
      outgoing_url: 'https://bot.example.test/x',
    });
    const fromBot = await newMessage(
      t,
      account,
      c.id,
      {
        content: 'I am a bot',
        content_type: 'input_select',
        content_attributes: { items: [{ title: 'A', value: 'a' }] },
      },
      botRes.body.access_token,
    );
    expect(fromBot).toMatchObject({
      message_type: 1,
      content_type: 'input_select',
      sender_type: 'AgentBot',
      sender: { id: botRes.body.id, type: 'agent_bot', name: 'Helper' },
    });
    const bot = client(t.app, botRes.body.access_token);
    expect((await bot.get(`${account.path}/conversations/${c.id}/messages`)).status).toBe(403);
    expect((await bot.delete(`${account.path}/conversations/${c.id}/messages/${fromBot.id}`)).status).toBe(403);
  });

  it('rejects bad messages with 422 and writes nothing', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const api = client(t.app, account.admin.token);
    const before = [await count('messages'), await count('outbox_events')];
    const bodies: Record<string, unknown>[] = [
      {},
      { content: '   ' },
      { content: 42 },
      { content: 'x'.repeat(150_001) },
      { content: 'x', message_type: 'outbound' },
      { content: 'x', message_type: 1 },
      { content: 'x', content_type: 'video' },
      { content: 'x', private: 'yes' },
      { content: 'x', private: true, message_type: 'incoming' },
      { content: 'x', content_attributes: 'nope' },
      { content: 'x', echo_id: 'e'.repeat(256) },
    ];
    for (const body of bodies) {
      const res = await api.post(`${account.path}/conversations/${c.id}/messages`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect([await count('messages'), await count('outbox_events')]).toEqual(before);
  });

  it('accepts content of exactly 150000 characters and a body wrapped in "message"', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const long = await newMessage(t, account, c.id, { content: 'y'.repeat(150_000) });
    expect(long.content).toHaveLength(150_000);
    const res = await client(t.app, account.admin.token).post(`${account.path}/conversations/${c.id}/messages`, {
      message: { content: 'wrapped' },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('wrapped');
  });

  it('answers 404 for conversations of other accounts or other inboxes, 401 without a token', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const hidden = await newConversation(t, account);
    expect(
      (await client(t.app, other.admin.token).post(`${other.path}/conversations/${c.id}/messages`, { content: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await client(t.app, account.admin.token).post(`${other.path}/conversations/${c.id}/messages`, { content: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await client(t.app, agent.token).post(`${account.path}/conversations/${hidden.id}/messages`, { content: 'x' }))
        .status,
    ).toBe(404);
    expect((await client(t.app, agent.token).get(`${account.path}/conversations/${hidden.id}/messages`)).status).toBe(
      404,
    );
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: `${account.path}/conversations/${c.id}/messages`,
          body: { content: 'x' },
        })
      ).status,
    ).toBe(401);
    expect((await call(t.app, { url: `${account.path}/conversations/${c.id}/messages` })).status).toBe(401);
  });
});

describe('GET messages', () => {
  it('returns the latest 20 oldest first, 20 before an id, up to 100 after one, with the conversation meta', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    await client(t.app, account.admin.token).post(`${account.path}/conversations/${c.id}/labels`, { labels: ['vip'] });
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push((await newMessage(t, account, c.id, { content: `m${i}` })).id);
    const api = client(t.app, agent.token);
    const latest = await api.get(`${account.path}/conversations/${c.id}/messages`);
    expect(latest.status).toBe(200);
    expect(latest.body.payload.map((m: { id: number }) => m.id)).toEqual(ids.slice(5));
    expect(latest.body.meta).toEqual({
      labels: ['vip'],
      additional_attributes: {},
      contact: expect.objectContaining({ id: contactId, name: 'Maria', type: 'contact' }),
      assignee: null,
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
    });
    const before = await api.get(`${account.path}/conversations/${c.id}/messages?before=${ids[5]}`);
    expect(before.body.payload.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 5));
    const after = await api.get(`${account.path}/conversations/${c.id}/messages?after=${ids[2]}`);
    expect(after.body.payload.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    expect((await api.get(`${account.path}/conversations/${c.id}/messages?after=abc`)).status).toBe(422);
  });

  it("shows the assignee in the meta, and reads only the meta's contact, assignee and labels beside the messages", async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source, assigneeId: agent.id });
    const res = await client(t.app, agent.token).get(`${account.path}/conversations/${c.id}/messages`);
    expect(res.status).toBe(200);
    expect(res.body.meta.assignee).toMatchObject({ id: agent.id, name: 'Alice Agent' });
    expect(res.body.meta.contact).toMatchObject({ id: contactId });

    const conversation = await conversationRow(t.db, account.id, c.id);
    const counted = countingQueries(t.db);
    const meta = await servicesOf(t).services.conversations.bundles.meta(counted.db, conversation);
    expect(meta).toMatchObject({ contact: { id: contactId }, assignee: { id: agent.id }, labels: [] });
    expect(counted.counter.queries).toBe(3);
  });
});

describe('DELETE messages', () => {
  it('soft-deletes: replaces the content, marks it deleted, removes attachment rows, records message_updated once', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: source });
    const m = await newMessage(t, account, c.id, {
      content: 'secret',
      content_type: 'cards',
      content_attributes: { items: [1] },
    });
    // Attachment rows are written by the multipart upload path; a row is enough to see it removed.
    await t.db
      .insertInto('attachments')
      .values({
        account_id: account.id,
        message_id: m.id,
        file_type: 'image',
        file_name: 'a.png',
        content_type: 'image/png',
        extension: 'png',
        file_size: 3,
        storage_key: `key-${m.id}`,
        created_at: Date.now(),
      })
      .execute();
    const before = (await outbox(account.id, 'message_updated')).length;
    const api = client(t.app, account.admin.token);
    const res = await api.delete(`${account.path}/conversations/${c.id}/messages/${m.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: m.id,
      content: 'This message was deleted',
      content_type: 'text',
      content_attributes: { deleted: true },
      attachments: [],
    });
    expect(await t.db.selectFrom('attachments').select('id').where('message_id', '=', m.id).execute()).toEqual([]);
    const updates = (await outbox(account.id, 'message_updated')).slice(before);
    expect(updates).toHaveLength(1);
    expect(updates[0].payload).toMatchObject({
      event: 'message_updated',
      id: String(m.id),
      content: 'This message was deleted',
      content_attributes: { deleted: true },
      conversation: { id: c.id },
    });
    expect(updates[0].payload.changed_attributes[0]).toEqual({
      content: { previous_value: 'secret', current_value: 'This message was deleted' },
    });

    expect((await api.delete(`${account.path}/conversations/${c.id}/messages/${m.id}`)).status).toBe(200);
    expect((await outbox(account.id, 'message_updated')).length).toBe(before + 1);
    const listed = await api.get(`${account.path}/conversations/${c.id}/messages`);
    expect(listed.body.payload.find((x: { id: number }) => x.id === m.id).content).toBe('This message was deleted');
  });

  it('answers 404 for unknown messages, messages of another conversation and other accounts', async () => {
    const a = await newConversation(t, account, { inboxId, contactSourceId: source });
    const b = await newConversation(t, account, { inboxId, contactSourceId: source });
    const m = await newMessage(t, account, a.id);
    const api = client(t.app, account.admin.token);
    expect((await api.delete(`${account.path}/conversations/${b.id}/messages/${m.id}`)).status).toBe(404);
    expect((await api.delete(`${account.path}/conversations/${a.id}/messages/99999999`)).status).toBe(404);
    expect(
      (await client(t.app, other.admin.token).delete(`${other.path}/conversations/${a.id}/messages/${m.id}`)).status,
    ).toBe(404);
    expect(
      (await call(t.app, { method: 'DELETE', url: `${account.path}/conversations/${a.id}/messages/${m.id}` })).status,
    ).toBe(401);
    const listed = await api.get(`${account.path}/conversations/${a.id}/messages`);
    expect(listed.body.payload[0].content).toBe(m.content);
  });
});
