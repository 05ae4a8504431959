import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, outboxEvents } from '../../../../test/helpers/db.js';
import {
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

const merge = (token: string, body: unknown) =>
  call(t.app, { method: 'POST', url: `${account.path}/actions/contact_merge`, token, body });

async function snapshot() {
  const [contacts, contactInboxes, conversations, messages, taggings] = await Promise.all([
    t.db.selectFrom('contacts').selectAll().orderBy('id').execute(),
    t.db.selectFrom('contact_inboxes').selectAll().orderBy('id').execute(),
    t.db.selectFrom('conversations').selectAll().orderBy('id').execute(),
    t.db.selectFrom('messages').selectAll().orderBy('id').execute(),
    t.db.selectFrom('taggings').selectAll().orderBy('id').execute(),
  ]);
  return { contacts, contactInboxes, conversations, messages, taggings };
}

describe('POST {A}/actions/contact_merge', () => {
  it('moves conversations, contact inboxes, labels and blank attributes into the base contact and deletes the mergee', async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account);
    const otherInbox = await newInbox(t, account);
    const base = await newContact(t, account, {
      name: 'Maria Silva',
      phone_number: '+5511988887777',
      inbox_id: inbox.id,
      custom_attributes: { plan: 'gold', nested: { a: 1 } },
    });
    const mergee = await newContact(t, account, {
      name: 'Maria',
      email: 'maria@example.test',
      identifier: 'maria-wa',
      phone_number: '+551188887777',
      inbox_id: otherInbox.id,
      custom_attributes: { plan: 'silver', city: 'SP', nested: { b: 2 } },
      additional_attributes: { company: 'Acme' },
    });
    await api.post(`${account.path}/contacts/${base.contact.id}/labels`, { labels: ['vip'] });
    await api.post(`${account.path}/contacts/${mergee.contact.id}/labels`, { labels: ['lead', 'vip'] });
    const conversation = await newConversation(t, account, {
      inboxId: otherInbox.id,
      contactSourceId: mergee.contact_inbox!.source_id,
    });
    const incoming = await newMessage(t, account, conversation.id, {
      message_type: 'incoming',
      content: 'from mergee',
    });

    // Ids as the SDK sends them: strings.
    const res = await merge(account.admin.token, {
      base_contact_id: String(base.contact.id),
      mergee_contact_id: String(mergee.contact.id),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: base.contact.id,
      name: 'Maria Silva',
      email: 'maria@example.test',
      identifier: 'maria-wa',
      phone_number: '+5511988887777',
      custom_attributes: { plan: 'gold', city: 'SP', nested: { a: 1, b: 2 } },
      additional_attributes: { company: 'Acme' },
    });
    expect(res.body.contact_inboxes.map((ci: { inbox: { id: number } }) => ci.inbox.id).sort()).toEqual(
      [inbox.id, otherInbox.id].sort(),
    );

    expect((await api.get(`${account.path}/contacts/${mergee.contact.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/contacts/${base.contact.id}/labels`)).body.payload).toEqual(['lead', 'vip']);
    const moved = await api.get(`${account.path}/conversations/${conversation.id}`);
    expect(moved.body.contact.id).toBe(base.contact.id);
    expect(moved.body.meta.sender.id).toBe(base.contact.id);
    const thread = await api.get(`${account.path}/conversations/${conversation.id}/messages`);
    const sent = thread.body.payload.find((m: { id: number }) => m.id === incoming.id);
    expect(sent.sender).toMatchObject({ id: base.contact.id, type: 'contact' });
    const conversations = await api.get(`${account.path}/contacts/${base.contact.id}/conversations`);
    expect(conversations.body.payload.map((c: { id: number }) => c.id)).toEqual([conversation.id]);
    // The mergee's source id still reaches the (base) contact in its inbox.
    const again = await api.post(`${account.path}/conversations`, {
      inbox_id: otherInbox.id,
      source_id: mergee.contact_inbox!.source_id,
    });
    expect(again.body.contact.id).toBe(base.contact.id);

    const updates = await outboxEvents(t.db, account.id, 'contact_updated');
    expect(updates.at(-1)!.payload).toMatchObject({ id: base.contact.id, email: 'maria@example.test' });
  });

  it('rejects the same contact twice or bad ids with 422, changing nothing', async () => {
    const a = (await newContact(t, account)).contact.id;
    const before = await snapshot();
    for (const body of [
      {},
      { base_contact_id: a },
      { base_contact_id: a, mergee_contact_id: a },
      { base_contact_id: 'x', mergee_contact_id: a },
      { base_contact_id: a, mergee_contact_id: 0 },
      { base_contact_id: true, mergee_contact_id: a },
    ]) {
      const res = await merge(account.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers 404 for another account's contacts, 401 without a token; agents may merge", async () => {
    const other = await newAccount(t, 'Other');
    const theirs = (await newContact(t, other)).contact.id;
    const mine = (await newContact(t, account)).contact.id;
    const before = await snapshot();
    for (const body of [
      { base_contact_id: mine, mergee_contact_id: theirs },
      { base_contact_id: theirs, mergee_contact_id: mine },
      { base_contact_id: mine, mergee_contact_id: 999999 },
    ]) {
      expect((await merge(account.admin.token, body)).status, JSON.stringify(body)).toBe(404);
    }
    expect((await merge(other.admin.token, { base_contact_id: mine, mergee_contact_id: theirs })).status).toBe(404);
    expect((await call(t.app, { method: 'POST', url: `${account.path}/actions/contact_merge`, body: {} })).status).toBe(
      401,
    );
    expect(await snapshot()).toEqual(before);
    const agent = await newAgent(t, account);
    const gone = (await newContact(t, account)).contact.id;
    const contacts = await countRows(t.db, 'contacts');
    expect((await merge(agent.token, { base_contact_id: mine, mergee_contact_id: gone })).status).toBe(200);
    expect(await countRows(t.db, 'contacts')).toBe(contacts - 1);
  });
});
