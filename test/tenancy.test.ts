import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';
import { client } from './helpers/http.js';
import { newAccount, newConversation, newInbox, type TestAccount } from './helpers/factories.js';

/**
 * The account comes from the path alone: an `account_id` in a body never moves anything, and a
 * member of one account reaches nothing of another.
 */
let t: ChatTestApp;
let mine: TestAccount;
let theirs: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  mine = await newAccount(t, 'Mine');
  theirs = await newAccount(t, 'Theirs');
});
afterAll(async () => {
  await t.close();
});

describe('account_id in bodies', () => {
  it('is ignored when creating inboxes, contacts, conversations and messages', async () => {
    const api = client(t.app, mine.admin.token);
    const inbox = await api.post(`${mine.path}/inboxes`, {
      name: 'Sneaky',
      channel: { type: 'api' },
      account_id: theirs.id,
    });
    expect(inbox.status).toBe(200);
    expect(inbox.body.account_id).toBe(mine.id);

    const contact = await api.post(`${mine.path}/contacts`, {
      name: 'Moved?',
      inbox_id: inbox.body.id,
      account_id: theirs.id,
    });
    expect(contact.status).toBe(200);
    const row = await t.db
      .selectFrom('contacts')
      .select('account_id')
      .where('id', '=', contact.body.payload.contact.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(mine.id);

    const conversation = await api.post(`${mine.path}/conversations`, {
      inbox_id: inbox.body.id,
      source_id: contact.body.payload.contact_inbox.source_id,
      account_id: theirs.id,
    });
    expect(conversation.status).toBe(200);
    expect(conversation.body.account_id).toBe(mine.id);

    const message = await api.post(`${mine.path}/conversations/${conversation.body.id}/messages`, {
      content: 'hi',
      account_id: theirs.id,
    });
    expect(message.status).toBe(200);
    expect(message.body.account_id).toBe(mine.id);
    expect((await client(t.app, theirs.admin.token).get(`${theirs.path}/contacts`)).body.meta.count).toBe(0);
  });
});

describe('a member of one account', () => {
  it('gets 404 for the other account and for its ids, on reads and writes', async () => {
    const api = client(t.app, mine.admin.token);
    const theirInbox = await newInbox(t, theirs);
    await newConversation(t, theirs, { inboxId: theirInbox.id });
    for (const path of ['/inboxes', '/contacts', '/conversations', '/agents', '/teams', `/inboxes/${theirInbox.id}`]) {
      const res = await api.get(`${theirs.path}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await api.get(`${mine.path}/inboxes/${theirInbox.id}`)).status).toBe(404);
    expect((await api.patch(`${mine.path}/inboxes/${theirInbox.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`${mine.path}/inboxes/${theirInbox.id}`)).status).toBe(404);
    const contact = await api.post(`${mine.path}/contacts`, { name: 'x', inbox_id: theirInbox.id });
    expect(contact.status).toBe(404);
  });
});
