import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, newContact, newInbox, type TestAccount } from '../../../../test/helpers/factories.js';
import { storageKeysOfContact } from '../attachments-files/attachments.repository.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

type Table = 'contacts' | 'contact_inboxes' | 'conversations' | 'messages' | 'attachments' | 'taggings';
const countWhere = async (table: Table, column: 'account_id' | 'id', value: number) =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(column, '=', value)
        .executeTakeFirstOrThrow()
    ).n,
  );
const counts = async (accountId: number) => {
  const out: Record<string, number> = {};
  for (const table of [
    'contacts',
    'contact_inboxes',
    'conversations',
    'messages',
    'attachments',
    'taggings',
  ] as const) {
    out[table] = await countWhere(table, 'account_id', accountId);
  }
  return out;
};

/**
 * A contact with a labelled profile and one conversation holding a message with an attachment.
 * The conversation, message and attachment are seeded with SQL because no conversation endpoint
 * exists yet; replace with factories once POST {A}/conversations and messages land.
 */
async function contactWithHistory(account: TestAccount, inboxId: number, key: string) {
  const { contact, contact_inbox } = await newContact(t, account, { inbox_id: inboxId });
  const labels = await client(t.app, account.admin.token).post(`${account.path}/contacts/${contact.id}/labels`, {
    labels: ['vip'],
  });
  expect(labels.status).toBe(200);
  const ci = await t.db
    .selectFrom('contact_inboxes')
    .select('id')
    .where('source_id', '=', contact_inbox!.source_id)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const display = await t.db
    .updateTable('accounts')
    .set((eb) => ({ last_conversation_display_id: eb('last_conversation_display_id', '+', 1) }))
    .where('id', '=', account.id)
    .returning('last_conversation_display_id')
    .executeTakeFirstOrThrow();
  const conversation = await t.db
    .insertInto('conversations')
    .values({
      account_id: account.id,
      display_id: display.last_conversation_display_id,
      uuid: `u-${key}`,
      inbox_id: inboxId,
      contact_id: contact.id,
      contact_inbox_id: ci.id,
      assignee_id: null,
      team_id: null,
      priority: null,
      snoozed_until: null,
      last_activity_at: now,
      first_reply_created_at: null,
      waiting_since: null,
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
      contact_last_seen_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const message = await t.db
    .insertInto('messages')
    .values({
      account_id: account.id,
      conversation_id: conversation.id,
      inbox_id: inboxId,
      content: 'hi',
      message_type: 0,
      source_id: null,
      echo_id: null,
      sender_type: 'Contact',
      sender_id: contact.id,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('attachments')
    .values({
      account_id: account.id,
      message_id: message.id,
      file_type: 'image',
      file_name: 'a.png',
      content_type: 'image/png',
      extension: 'png',
      file_size: 3,
      storage_key: key,
      created_at: now,
    })
    .execute();
  return contact.id;
}

describe('DELETE {A}/contacts/:id', () => {
  it('deletes the contact with its labels, contact inboxes, conversations, messages and attachments', async () => {
    const account = await newAccount(t);
    const inbox = await newInbox(t, account);
    const doomed = await contactWithHistory(account, inbox.id, `k-doomed-${account.id}`);
    const kept = await contactWithHistory(account, inbox.id, `k-kept-${account.id}`);
    expect(await counts(account.id)).toEqual({
      contacts: 2,
      contact_inboxes: 2,
      conversations: 2,
      messages: 2,
      attachments: 2,
      taggings: 2,
    });
    expect(await storageKeysOfContact(t.db, account.id, doomed)).toEqual([`k-doomed-${account.id}`]);

    const res = await client(t.app, account.admin.token).delete(`${account.path}/contacts/${doomed}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await counts(account.id)).toEqual({
      contacts: 1,
      contact_inboxes: 1,
      conversations: 1,
      messages: 1,
      attachments: 1,
      taggings: 1,
    });
    expect(await countWhere('contacts', 'id', doomed)).toBe(0);
    expect(await storageKeysOfContact(t.db, account.id, kept)).toEqual([`k-kept-${account.id}`]);
    expect((await client(t.app, account.admin.token).get(`${account.path}/contacts/${doomed}`)).status).toBe(404);
    expect((await client(t.app, account.admin.token).get(`${account.path}/contacts/${kept}/labels`)).body).toEqual({
      payload: ['vip'],
    });
  });

  it('is for administrators only (403 for agents), 404 across accounts, 401 without a token', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const id = (await newContact(t, account)).contact.id;
    const agent = await newAgent(t, account);
    const denied = await client(t.app, agent.token).delete(`${account.path}/contacts/${id}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'forbidden', error: expect.any(String) });
    expect((await client(t.app, other.admin.token).delete(`${other.path}/contacts/${id}`)).status).toBe(404);
    expect((await client(t.app, other.admin.token).delete(`${account.path}/contacts/${id}`)).status).toBe(404);
    expect((await client(t.app, account.admin.token).delete(`${account.path}/contacts/999999`)).status).toBe(404);
    expect((await call(t.app, { method: 'DELETE', url: `${account.path}/contacts/${id}` })).status).toBe(401);
    expect((await client(t.app, account.admin.token).delete(`${account.path}/contacts/abc`)).status).toBe(404);
    expect(await countWhere('contacts', 'id', id)).toBe(1);
  });
});
