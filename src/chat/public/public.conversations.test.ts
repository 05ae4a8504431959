import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { call, client } from '../../../test/helpers/http.js';
import { countRows, outboxEvents } from '../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  newPublicContact,
  newPublicConversation,
  publicInboxPath,
  type TestAccount,
  type TestUser,
} from '../../../test/helpers/factories.js';

/** Conversations and messages through the public interface, and what one contact can never reach. */

let t: ChatTestApp;
let account: TestAccount;
let agent: TestUser;
let inbox: { id: number; inbox_identifier: string };
let widget: { id: number; inbox_identifier: string };

const pub = () => client(t.app);
const contactPath = (sourceId: string, inboxIdentifier = inbox.inbox_identifier) =>
  `${publicInboxPath(inboxIdentifier)}/contacts/${encodeURIComponent(sourceId)}`;
const conversationPath = (sourceId: string, id: number, inboxIdentifier?: string) =>
  `${contactPath(sourceId, inboxIdentifier)}/conversations/${id}`;
const counts = async () => ({
  conversations: await countRows(t.db, 'conversations'),
  messages: await countRows(t.db, 'messages'),
  events: await countRows(t.db, 'outbox_events'),
});

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  agent = await newAgent(t, account, 'Alice Agent');
  inbox = (await newInbox(t, account, { type: 'api' }, 'API desk')) as typeof inbox;
  widget = (await newInbox(
    t,
    account,
    { type: 'web_widget', website_url: 'https://acme.test' },
    'Website',
  )) as typeof widget;
  await addInboxMembers(t, account, inbox.id, [agent.id]);
});
afterAll(async () => {
  await t.close();
});

describe('the widget flow', () => {
  it('contact -> conversation -> message; the agent sees and answers; the contact sees the answer but not the note', async () => {
    const contact = await newPublicContact(t, inbox.inbox_identifier, { name: 'Paula' });
    const started = await pub().post(`${contactPath(contact.source_id)}/conversations`, {
      custom_attributes: { order: 'A-1' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const conversation = started.body;
    expect(conversation).toEqual({
      id: expect.any(Number),
      uuid: expect.any(String),
      inbox_id: inbox.id,
      status: 'open',
      contact_last_seen_at: null,
      agent_last_seen_at: null,
      created_at: expect.any(String),
      messages: [],
      contact: { id: contact.id, name: 'Paula', email: null, phone_number: null },
    });
    // Nothing said yet: listed without a last message.
    expect((await pub().get(`${contactPath(contact.source_id)}/conversations`)).body).toEqual([conversation]);
    const [created] = (await outboxEvents(t.db, account.id, 'conversation_created')).slice(-1);
    expect(created.payload).toMatchObject({
      event: 'conversation_created',
      id: conversation.id,
      custom_attributes: { order: 'A-1' },
    });

    const sent = await pub().post(`${conversationPath(contact.source_id, conversation.id)}/messages`, {
      content: 'Where is my order?',
      echo_id: 'local-1',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({
      id: expect.any(Number),
      content: 'Where is my order?',
      message_type: 0,
      content_type: 'text',
      content_attributes: {},
      created_at: expect.any(Number),
      conversation_id: conversation.id,
      echo_id: 'local-1',
      sender: { id: contact.id, name: 'Paula', type: 'contact', thumbnail: '' },
      attachments: [],
    });
    const [event] = (await outboxEvents(t.db, account.id, 'message_created')).slice(-1);
    expect(event.payload).toMatchObject({
      event: 'message_created',
      id: String(sent.body.id),
      content: 'Where is my order?',
      message_type: 'incoming',
      echo_id: 'local-1',
      sender: { id: contact.id, name: 'Paula', type: 'contact' },
      conversation: { id: conversation.id, status: 'open' },
      account: { id: account.id, name: 'Acme' },
    });

    // The agent sees it, from the contact, and answers; a private note and an activity stay internal.
    const agentView = await client(t.app, agent.token).get(`${account.path}/conversations/${conversation.id}/messages`);
    expect(agentView.body.payload).toEqual([
      expect.objectContaining({
        id: sent.body.id,
        message_type: 0,
        sender_type: 'Contact',
        sender: expect.objectContaining({ id: contact.id, type: 'contact' }),
      }),
    ]);
    const reply = await newMessage(t, account, conversation.id, { content: 'On its way!' }, agent.token);
    await newMessage(t, account, conversation.id, { content: 'internal: customer is VIP', private: true }, agent.token);
    await newMessage(
      t,
      account,
      conversation.id,
      { content: 'Alice self-assigned', message_type: 'activity' },
      agent.token,
    );

    const list = await pub().get(`${conversationPath(contact.source_id, conversation.id)}/messages`);
    expect(list.status).toBe(200);
    expect(list.body.map((m: { id: number }) => m.id)).toEqual([sent.body.id, reply.id]);
    expect(list.body[1]).toEqual({
      id: reply.id,
      content: 'On its way!',
      message_type: 1,
      content_type: 'text',
      content_attributes: {},
      created_at: reply.created_at,
      conversation_id: conversation.id,
      echo_id: null,
      sender: { id: agent.id, name: 'Alice Agent', type: 'user', available_name: 'Alice Agent', thumbnail: '' },
      attachments: [],
    });
    expect(JSON.stringify(list.body)).not.toContain(agent.email);

    // The conversation list shows the last message the contact sees (the reply, not the note).
    const conversations = await pub().get(`${contactPath(contact.source_id)}/conversations`);
    expect(conversations.status).toBe(200);
    expect(conversations.body).toEqual([{ ...conversation, messages: [list.body[1]] }]);
    const one = await pub().get(conversationPath(contact.source_id, conversation.id));
    expect(one.body).toEqual(conversations.body[0]);
  });

  it('pages messages: the latest 20 oldest first, then the ones before', async () => {
    const contact = await newPublicContact(t, widget.inbox_identifier);
    const conversation = await newPublicConversation(t, widget.inbox_identifier, contact.source_id);
    const path = `${conversationPath(contact.source_id, conversation.id, widget.inbox_identifier)}/messages`;
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) ids.push((await pub().post(path, { message: { content: `m${i}` } })).body.id);
    const latest = await pub().get(path);
    expect(latest.body.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    const earlier = await pub().get(`${path}?before=${ids[3]}`);
    expect(earlier.body.map((m: { content: string }) => m.content)).toEqual(['m0', 'm1', 'm2']);
  });
});

describe('messages: bad input', () => {
  it('answers 422 and writes nothing for missing, mistyped, blank or oversized content', async () => {
    const contact = await newPublicContact(t, inbox.inbox_identifier);
    const conversation = await newPublicConversation(t, inbox.inbox_identifier, contact.source_id);
    const path = `${conversationPath(contact.source_id, conversation.id)}/messages`;
    const before = await counts();
    for (const body of [
      {},
      { content: 42 },
      { content: '' },
      { content: '   ' },
      { content: 'x'.repeat(150_001) },
      { content: 'ok', echo_id: 7 },
    ]) {
      const res = await pub().post(path, body);
      expect(res.status, JSON.stringify(body).slice(0, 50)).toBe(422);
      expect(res.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
    expect(
      (await pub().post(`${contactPath(contact.source_id)}/conversations`, { custom_attributes: 'x' })).status,
    ).toBe(422);
    expect(await counts()).toEqual(before);
  });
});

describe('isolation', () => {
  it("a contact never reaches another contact's conversation, nor its own through another inbox", async () => {
    const owner = await newPublicContact(t, inbox.inbox_identifier, { name: 'Owner' });
    const intruder = await newPublicContact(t, inbox.inbox_identifier, { name: 'Intruder' });
    const conversation = await newPublicConversation(t, inbox.inbox_identifier, owner.source_id);
    const message = (
      await pub().post(`${conversationPath(owner.source_id, conversation.id)}/messages`, { content: 'secret' })
    ).body;
    // A conversation the team opened with a third contact of the same inbox.
    const teamConversation = await newConversation(t, account, { inboxId: inbox.id });
    const before = await counts();

    const attempts: [string, string, unknown?][] = [];
    for (const id of [conversation.id, teamConversation.id, 999999]) {
      const path = conversationPath(intruder.source_id, id);
      attempts.push(
        ['GET', path],
        ['GET', `${path}/messages`],
        ['POST', `${path}/messages`, { content: 'hi' }],
        ['PATCH', `${path}/messages/${message.id}`, {}],
        ['POST', `${path}/toggle_status`, {}],
        ['POST', `${path}/update_last_seen`, {}],
      );
    }
    // The owner's own identifiers, but through the widget inbox of the same account.
    attempts.push(['GET', `${conversationPath(owner.source_id, conversation.id, widget.inbox_identifier)}/messages`]);
    attempts.push([
      'POST',
      `${conversationPath(owner.source_id, conversation.id, widget.inbox_identifier)}/messages`,
      { content: 'x' },
    ]);
    for (const [method, url, body] of attempts) {
      const res = await call(t.app, { method: method as 'GET', url, body });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect(await counts()).toEqual(before);
    expect((await pub().get(`${contactPath(intruder.source_id)}/conversations`)).body).toEqual([]);
    const own = await pub().get(`${conversationPath(owner.source_id, conversation.id)}/messages`);
    expect(own.body.map((m: { id: number }) => m.id)).toEqual([message.id]);
  });
});

describe('status, read marks and answers', () => {
  it('toggle_status resolves (conversation_status_changed); a new message from the contact reopens it', async () => {
    const contact = await newPublicContact(t, inbox.inbox_identifier);
    const conversation = await newPublicConversation(t, inbox.inbox_identifier, contact.source_id);
    const path = conversationPath(contact.source_id, conversation.id);
    const resolved = await pub().post(`${path}/toggle_status`, {});
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ ...conversation, status: 'resolved' });
    const [event] = (await outboxEvents(t.db, account.id, 'conversation_status_changed')).slice(-1);
    expect(event.payload).toMatchObject({
      id: conversation.id,
      status: 'resolved',
      changed_attributes: [{ status: { previous_value: 'open', current_value: 'resolved' } }],
    });

    const before = await counts();
    expect((await pub().post(`${path}/toggle_status`, {})).body.status).toBe('resolved');
    expect(await counts()).toEqual(before); // already resolved: nothing written

    await pub().post(`${path}/messages`, { content: 'One more thing' });
    expect((await pub().get(path)).body.status).toBe('open');
  });

  it('update_last_seen and a PATCH without body set contact_last_seen_at only', async () => {
    const contact = await newPublicContact(t, inbox.inbox_identifier);
    const conversation = await newPublicConversation(t, inbox.inbox_identifier, contact.source_id);
    const path = conversationPath(contact.source_id, conversation.id);
    const reply = await newMessage(t, account, conversation.id, { content: 'Hello' });
    const start = Date.now();
    expect((await pub().post(`${path}/update_last_seen`, {})).body).toEqual({});
    const seen = (await pub().get(path)).body;
    expect(Date.parse(seen.contact_last_seen_at)).toBeGreaterThanOrEqual(start - 1000);
    expect(seen.agent_last_seen_at).toBeNull();

    await t.db
      .updateTable('conversations')
      .set({ contact_last_seen_at: null })
      .where('display_id', '=', conversation.id)
      .execute();
    const before = await counts();
    const res = await call(t.app, { method: 'PATCH', url: `${path}/messages/${reply.id}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: reply.id, content: 'Hello', content_attributes: {} });
    expect((await pub().get(path)).body.contact_last_seen_at).not.toBeNull();
    expect(await counts()).toEqual(before); // no message_updated
  });

  it('stores submitted_values on an options message (message_updated); refuses them elsewhere', async () => {
    const contact = await newPublicContact(t, inbox.inbox_identifier);
    const conversation = await newPublicConversation(t, inbox.inbox_identifier, contact.source_id);
    const path = conversationPath(contact.source_id, conversation.id);
    const options = await newMessage(t, account, conversation.id, {
      content: 'Pick one',
      content_type: 'input_select',
      content_attributes: {
        items: [
          { title: 'Sales', value: 'sales' },
          { title: 'Support', value: 'support' },
        ],
      },
    });
    const res = await pub().patch(`${path}/messages/${options.id}`, {
      submitted_values: [{ title: 'Support', value: 'support' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.content_attributes).toEqual({
      items: [
        { title: 'Sales', value: 'sales' },
        { title: 'Support', value: 'support' },
      ],
      submitted_values: [{ title: 'Support', value: 'support' }],
    });
    const [event] = (await outboxEvents(t.db, account.id, 'message_updated')).slice(-1);
    expect(event.payload).toMatchObject({
      id: String(options.id),
      content_type: 'input_select',
      changed_attributes: [
        {
          content_attributes: {
            previous_value: { items: expect.any(Array) },
            current_value: { submitted_values: [{ value: 'support' }] },
          },
        },
      ],
    });

    const text = await newMessage(t, account, conversation.id, { content: 'plain' });
    const note = await newMessage(t, account, conversation.id, { content: 'note', private: true });
    const before = await counts();
    const refused = await pub().patch(`${path}/messages/${text.id}`, { submitted_values: [{ value: 'x' }] });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'unprocessable_entity', details: [{ field: 'submitted_values' }] });
    expect((await pub().patch(`${path}/messages/${options.id}`, { submitted_values: 'x' })).status).toBe(422);
    expect((await pub().patch(`${path}/messages/${note.id}`, { submitted_values: [{ value: 'x' }] })).status).toBe(404);
    expect((await pub().patch(`${path}/messages/${note.id}`, {})).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});
