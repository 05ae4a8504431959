import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationRow as rowOf, outboxEvents } from '../../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newTeam,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** Conversation routes and readings published Chatwoot clients rely on. */
let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

const conversationRow = (displayId: number) => rowOf(t.db, account.id, displayId);

describe('POST {A}/conversations/:id/assignments', () => {
  it('with assignee_id ignores team_id, whatever it is ({"assignee_id": 3, "team_id": 0} is a 200)', async () => {
    const api = client(t.app, account.admin.token);
    const agent = await newAgent(t, account, 'Assignee');
    const inbox = await newInbox(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const team = await newTeam(t, account);
    const conversation = await newConversation(t, account, { inboxId: inbox.id, teamId: team.id });
    const url = `${account.path}/conversations/${conversation.id}/assignments`;
    for (const body of [
      { assignee_id: agent.id, team_id: 0 },
      { assignee_id: String(agent.id), team_id: '' },
      { assignee_id: agent.id, team_id: 999999 },
    ]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ id: agent.id, name: 'Assignee' });
    }
    const row = await conversationRow(conversation.id);
    expect([row.assignee_id, row.team_id]).toEqual([agent.id, team.id]);
    // team_id alone: a team; 0 (no such team, as Chatwoot looks it up) removes it.
    expect((await api.post(url, { team_id: String(team.id) })).body).toMatchObject({ id: team.id });
    expect((await api.post(url, { team_id: 0 })).body).toBeNull();
    expect((await conversationRow(conversation.id)).team_id).toBeNull();
    expect((await api.post(url, { team_id: -1 })).status).toBe(422);
    expect((await api.post(url, { assignee_id: 'me' })).status).toBe(422);
  });
});

describe('POST {A}/conversations with contact_id and inbox_id only (the SDK, Evolution API)', () => {
  it("uses the contact's source id in the inbox, or makes one", async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account);
    const known = await newContact(t, account, { inbox_id: inbox.id, source_id: 'known-src' });
    const first = await api.post(`${account.path}/conversations`, {
      contact_id: String(known.contact.id),
      inbox_id: String(inbox.id),
      source_id: '',
      assignee_id: '',
      team_id: '',
      status: '',
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      status: 'open',
      contact: { id: known.contact.id },
      contact_inbox: { source_id: 'known-src' },
    });
    const stranger = await newContact(t, account);
    const second = await api.post(`${account.path}/conversations`, {
      contact_id: stranger.contact.id,
      inbox_id: inbox.id,
    });
    expect(second.status).toBe(200);
    expect(second.body.contact_inbox.source_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET {A}/contacts/:id/conversations', () => {
  it("lists the contact's latest conversations in the inboxes the caller sees, newest first", async () => {
    const api = client(t.app, account.admin.token);
    const seen = await newInbox(t, account);
    const hidden = await newInbox(t, account);
    const contact = await newContact(t, account, { inbox_id: seen.id, source_id: 'cc-src' });
    const other = await newContact(t, account, { inbox_id: seen.id });
    const a = await newConversation(t, account, { inboxId: seen.id, contactSourceId: 'cc-src' });
    const b = await newConversation(t, account, { inboxId: seen.id, contactSourceId: 'cc-src' });
    const elsewhere = (
      await api.post(`${account.path}/conversations`, { contact_id: contact.contact.id, inbox_id: hidden.id })
    ).body;
    await newConversation(t, account, { inboxId: seen.id, contactSourceId: other.contact_inbox!.source_id });

    const res = await api.get(`${account.path}/contacts/${contact.contact.id}/conversations`);
    expect(res.status).toBe(200);
    expect(res.body.payload.map((c: { id: number }) => c.id)).toEqual([elsewhere.id, b.id, a.id]);
    expect(res.body.payload[0]).toMatchObject({ inbox_id: hidden.id, meta: { sender: { id: contact.contact.id } } });

    const agent = await newAgent(t, account);
    await addInboxMembers(t, account, seen.id, [agent.id]);
    const asAgent = await client(t.app, agent.token).get(
      `${account.path}/contacts/${contact.contact.id}/conversations`,
    );
    expect(asAgent.body.payload.map((c: { id: number }) => c.id)).toEqual([b.id, a.id]);
  });

  it("answers 404 for another account's contact, 401 without a token", async () => {
    const other = await newAccount(t, 'Other');
    const theirs = (await newContact(t, other)).contact.id;
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/contacts/${theirs}/conversations`)).status,
    ).toBe(404);
    expect((await call(t.app, { url: `${account.path}/contacts/${theirs}/conversations` })).status).toBe(401);
  });
});

describe('POST {A}/conversations/:id/custom_attributes', () => {
  it('replaces the custom attributes and records conversation_updated', async () => {
    const api = client(t.app, account.admin.token);
    const conversation = await newConversation(t, account);
    const url = `${account.path}/conversations/${conversation.id}/custom_attributes`;
    await api.patch(`${account.path}/conversations/${conversation.id}`, { custom_attributes: { old: 1 } });
    const res = await api.post(url, { custom_attributes: { order_id: '12345', priority_number: 3 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ custom_attributes: { order_id: '12345', priority_number: 3 } });
    expect((await api.get(`${account.path}/conversations/${conversation.id}`)).body.custom_attributes).toEqual({
      order_id: '12345',
      priority_number: 3,
    });
    const updates = await outboxEvents(t.db, account.id, 'conversation_updated');
    expect(updates.at(-1)!.payload.changed_attributes).toEqual([
      {
        custom_attributes: {
          previous_value: { old: 1 },
          current_value: { order_id: '12345', priority_number: 3 },
        },
      },
    ]);
    // The same attributes again change nothing and record nothing.
    const count = (await outboxEvents(t.db, account.id)).length;
    expect(
      (await api.post(url, { conversation: { custom_attributes: { order_id: '12345', priority_number: 3 } } })).status,
    ).toBe(200);
    expect((await outboxEvents(t.db, account.id)).length).toBe(count);
  });

  it("rejects bad input with 422, another account's conversation with 404, no token with 401, changing nothing", async () => {
    const api = client(t.app, account.admin.token);
    const conversation = await newConversation(t, account);
    const url = `${account.path}/conversations/${conversation.id}/custom_attributes`;
    await api.post(url, { custom_attributes: { keep: true } });
    const before = await conversationRow(conversation.id);
    for (const body of [{}, { custom_attributes: 'x' }, { custom_attributes: [1] }, { custom_attributes: null }]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
    const other = await newAccount(t, 'Other');
    const theirs = await newConversation(t, other);
    expect(
      (await api.post(`${account.path}/conversations/${theirs.id + 100}/custom_attributes`, { custom_attributes: {} }))
        .status,
    ).toBe(404);
    expect((await call(t.app, { method: 'POST', url, body: { custom_attributes: {} } })).status).toBe(401);
    // An agent outside the conversation's inbox does not see it.
    const agent = await newAgent(t, account);
    expect((await client(t.app, agent.token).post(url, { custom_attributes: {} })).status).toBe(404);
    expect(await conversationRow(conversation.id)).toEqual(before);
  });
});
