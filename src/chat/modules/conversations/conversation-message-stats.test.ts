import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import {
  newAccount,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { conversationMessageStatsQuery } from '../messages/messages.repository.js';

/**
 * What the conversation list shows of each conversation's messages: the last one (`messages`),
 * the last that is not an activity, and how many incoming ones came after the agent's last visit.
 * Read per conversation through indexes (migration 0014), never by reading all its messages.
 */
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

type Listed = {
  id: number;
  unread_count: number;
  messages: { id: number }[];
  last_non_activity_message: { id: number } | null;
};

async function listed(acc: TestAccount): Promise<Map<number, Listed>> {
  const res = await client(t.app, acc.admin.token).get(`${acc.path}/conversations?status=all`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.data.payload as Listed[]).map((c) => [c.id, c]));
}

/** Messages at fixed times, so "after the last visit" does not depend on the clock's resolution. */
async function at(id: number, createdAt: number) {
  await t.db.updateTable('messages').set({ created_at: createdAt }).where('id', '=', id).execute();
}

describe('message stats of the conversation list', () => {
  it('shows the last message, the last non-activity message and the unread incoming count', async () => {
    const inbox = (await newInbox(t, account)).id;
    const busy = await newConversation(t, account, { inboxId: inbox });
    const empty = await newConversation(t, account, { inboxId: inbox });
    const seen = await newConversation(t, account, { inboxId: inbox });

    const timeline: [Record<string, unknown>, number][] = [
      [{ message_type: 'incoming' }, 1_000],
      [{ message_type: 'outgoing' }, 2_000],
      [{ message_type: 'incoming' }, 3_000],
      [{ message_type: 'incoming' }, 4_000],
      [{ message_type: 'outgoing', private: true }, 5_000],
      [{ message_type: 'activity' }, 6_000],
    ];
    const ids: number[] = [];
    for (const [fields, createdAt] of timeline) {
      const message = await newMessage(t, account, busy.id, fields);
      await at(message.id, createdAt);
      ids.push(message.id);
    }
    await t.db.updateTable('conversations').set({ agent_last_seen_at: 2_500 }).where('id', '=', busy.id).execute();

    const read = await newMessage(t, account, seen.id, { message_type: 'incoming' });
    await at(read.id, 1_000);
    await t.db.updateTable('conversations').set({ agent_last_seen_at: 1_000 }).where('id', '=', seen.id).execute();

    // Another account's messages count only there. Its fourth conversation's id (ids are numbered
    // per account) is not one of this account's three.
    const otherInbox = (await newInbox(t, other)).id;
    for (let i = 0; i < 3; i++) await newConversation(t, other, { inboxId: otherInbox });
    const theirs = await newConversation(t, other, { inboxId: otherInbox });
    await newMessage(t, other, theirs.id, { message_type: 'incoming' });

    const page = await listed(account);
    expect(page.get(busy.id)).toMatchObject({
      unread_count: 2,
      messages: [{ id: ids[5] }],
      last_non_activity_message: { id: ids[4] },
    });
    expect(page.get(empty.id)).toMatchObject({ unread_count: 0, messages: [], last_non_activity_message: null });
    // Seen at the very millisecond of the message: read.
    expect(page.get(seen.id)).toMatchObject({ unread_count: 0, messages: [{ id: read.id }] });
    expect([...page.keys()].sort()).toEqual([busy.id, empty.id, seen.id].sort());

    const theirPage = await listed(other);
    expect(theirPage.size).toBe(4);
    expect(theirPage.get(theirs.id)).toMatchObject({ unread_count: 1 });

    // The agent opens the conversation: nothing is unread any more.
    const api = client(t.app, account.admin.token);
    expect((await api.post(`${account.path}/conversations/${busy.id}/update_last_seen`, {})).status).toBe(200);
    expect((await listed(account)).get(busy.id)?.unread_count).toBe(0);
    // Not another account's conversation.
    expect((await api.post(`${account.path}/conversations/${theirs.id}/update_last_seen`, {})).status).toBe(404);
  });

  it('reads each conversation through indexes, not all of its messages', async () => {
    if (testDialect === 'sqlite') {
      const compiled = conversationMessageStatsQuery(t.db, account.id, [1, 2, 3]).compile();
      const plan = await t.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).not.toMatch(/SCAN/);
      expect(details).toMatch(
        /COVERING INDEX messages_unread_idx \(conversation_id=\? AND message_type=\? AND created_at>\?\)/,
      );
      expect(details).toMatch(/COVERING INDEX messages_conversation_idx \(conversation_id=\?\)/);
    } else {
      const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where schemaname = current_schema() and indexname = 'messages_unread_idx'`.execute(t.db);
      expect(indexes.rows.map((r) => r.indexdef)).toEqual([
        expect.stringMatching(/\(conversation_id, message_type, created_at\)/),
      ]);
    }
  });
});
