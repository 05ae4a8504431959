import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { countRows, outboxEvents } from '../../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  newTeam,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let inboxId: number;
let hiddenInboxId: number;
let sourceId: string;
let contactId: number;

const outbox = (accountId: number, name?: string) => outboxEvents(t.db, accountId, name);

const count = (table: 'conversations' | 'messages' | 'outbox_events' | 'contact_inboxes') => countRows(t.db, table);

async function newBotToken(acc: TestAccount): Promise<string> {
  const res = await client(t.app, acc.admin.token).post(`${acc.path}/agent_bots`, {
    name: 'Bot',
    outgoing_url: 'https://bot.example.test/hook',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token;
}

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Alice Agent');
  inboxId = (await newInbox(t, account)).id;
  hiddenInboxId = (await newInbox(t, account, { type: 'api' }, 'Hidden')).id;
  await addInboxMembers(t, account, inboxId, [agent.id]);
  sourceId = 'source-main';
  contactId = (
    await newContact(t, account, {
      name: 'Maria Silva',
      email: 'maria@example.test',
      inbox_id: inboxId,
      source_id: sourceId,
    })
  ).contact.id;
});
afterAll(async () => {
  await t.close();
});

describe('POST conversations', () => {
  it('creates a conversation with its first message and records exactly conversation_created then message_created', async () => {
    const team = await newTeam(t, account);
    const before = (await outbox(account.id)).length;
    const res = await client(t.app, account.admin.token).post(`${account.path}/conversations`, {
      source_id: sourceId,
      inbox_id: inboxId,
      status: 'pending',
      assignee_id: agent.id,
      team_id: team.id,
      additional_attributes: { browser: 'Firefox' },
      custom_attributes: { order: 42 },
      message: { content: 'Hello Maria', content_type: 'text' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const c = res.body;
    expect(c).toMatchObject({
      id: expect.any(Number),
      account_id: account.id,
      inbox_id: inboxId,
      status: 'pending',
      priority: 'none',
      contact: { id: contactId, name: 'Maria Silva', email: 'maria@example.test', type: 'contact' },
      assignee: { id: agent.id, name: 'Alice Agent', role: 'agent', available_name: 'Alice Agent' },
      team: { id: team.id, name: team.name },
      labels: [],
      additional_attributes: { browser: 'Firefox' },
      custom_attributes: { order: 42 },
      contact_inbox: { source_id: sourceId },
      unread_count: 0,
      can_reply: true,
      muted: false,
      snoozed_until: null,
      waiting_since: null,
      contact_last_seen_at: null,
      meta: {
        sender: { id: contactId, name: 'Maria Silva' },
        assignee: { id: agent.id },
        team: { id: team.id },
        channel: 'Channel::Api',
        hmac_verified: false,
      },
    });
    expect(c.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
    expect(c.timestamp).toBe(c.last_activity_at);
    expect(Number.isInteger(c.first_reply_created_at)).toBe(true);
    expect(c.messages).toHaveLength(1);
    expect(c.messages[0]).toMatchObject({
      content: 'Hello Maria',
      message_type: 1,
      conversation_id: c.id,
      private: false,
      sender: { id: account.admin.id, type: 'user' },
      attachments: [],
    });

    const events = (await outbox(account.id)).slice(before);
    expect(events.map((e) => e.name)).toEqual(['conversation_created', 'message_created']);
    expect(events[0].payload).toMatchObject({
      event: 'conversation_created',
      id: c.id,
      status: 'pending',
      inbox_id: inboxId,
    });
    const m = events[1].payload;
    expect(m).toMatchObject({
      event: 'message_created',
      id: String(c.messages[0].id),
      account: { id: account.id, name: 'Acme' },
      content: 'Hello Maria',
      conversation: { id: c.id, status: 'pending' },
      sender: { id: account.admin.id, name: 'Admin', type: 'user' },
      message_type: 'outgoing',
      content_type: 'text',
      private: false,
      inbox: { id: inboxId, name: 'Support' },
    });
    expect(new Date(m.created_at).toISOString()).toBe(m.created_at);
  });

  it('numbers conversations per account and shows one by that number', async () => {
    const a = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const b = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    expect(b.id).toBe(a.id + 1);
    const firstOfOther = await newConversation(t, other);
    expect(firstOfOther.id).toBe(1);
    const shown = await client(t.app, account.admin.token).get(`${account.path}/conversations/${b.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      id: b.id,
      uuid: b.uuid,
      status: 'open',
      contact: { id: contactId },
      messages: [],
    });
  });

  it('creates the contact inbox when contact_id comes with a new source_id; 409 when another contact holds it', async () => {
    const { contact } = await newContact(t, account, { name: 'Nina' });
    const api = client(t.app, account.admin.token);
    const res = await api.post(`${account.path}/conversations`, {
      inbox_id: inboxId,
      source_id: 'nina-src',
      contact_id: contact.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ contact: { id: contact.id }, contact_inbox: { source_id: 'nina-src' } });
    const taken = await api.post(`${account.path}/conversations`, {
      inbox_id: inboxId,
      source_id: sourceId,
      contact_id: contact.id,
    });
    expect(taken.status).toBe(409);
  });

  it('rejects bad input with 422 and writes nothing', async () => {
    const api = client(t.app, account.admin.token);
    const before = [await count('conversations'), await count('messages'), await count('outbox_events')];
    const bodies: Record<string, unknown>[] = [
      {},
      { source_id: sourceId },
      { source_id: 42, inbox_id: inboxId },
      { source_id: sourceId, inbox_id: 'abc' },
      { source_id: 'x'.repeat(256), inbox_id: inboxId },
      { source_id: sourceId, inbox_id: inboxId, status: 'resolved' },
      { source_id: sourceId, inbox_id: inboxId, message: { content: 'x', content_type: 'bogus' } },
      { source_id: sourceId, inbox_id: inboxId, message: { content: 'x'.repeat(150_001) } },
    ];
    for (const body of bodies) {
      const res = await api.post(`${account.path}/conversations`, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    // Without contact_id the source id names the contact: leaving both out is a 422 too.
    const neither = await api.post(`${account.path}/conversations`, { inbox_id: inboxId });
    expect(neither.status).toBe(422);
    expect(neither.body.details).toEqual([{ field: 'source_id', message: expect.any(String) }]);
    expect([await count('conversations'), await count('messages'), await count('outbox_events')]).toEqual(before);
  });

  it('answers 404 for an unknown or foreign inbox, contact or source id, and writes nothing', async () => {
    const api = client(t.app, account.admin.token);
    const foreignInbox = (await newInbox(t, other)).id;
    const foreignContact = (await newContact(t, other, { name: 'Foreign' })).contact.id;
    const before = [await count('conversations'), await count('contact_inboxes'), await count('outbox_events')];
    for (const body of [
      { source_id: sourceId, inbox_id: 999999 },
      { source_id: sourceId, inbox_id: foreignInbox },
      { source_id: 'no-such-source', inbox_id: inboxId },
      { source_id: 'fresh', inbox_id: inboxId, contact_id: foreignContact },
    ]) {
      const res = await api.post(`${account.path}/conversations`, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect([await count('conversations'), await count('contact_inboxes'), await count('outbox_events')]).toEqual(
      before,
    );
  });

  it('rolls back everything, the conversation number included, when the assignee or team is invalid', async () => {
    const api = client(t.app, account.admin.token);
    const outsider = await newAgent(t, other);
    const foreignTeam = await newTeam(t, other);
    const first = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const before = [await count('conversations'), await count('messages'), (await outbox(account.id)).length];
    const bad = [
      { assignee_id: outsider.id, field: 'assignee_id' },
      { assignee_id: 999999, field: 'assignee_id' },
      { team_id: foreignTeam.id, field: 'team_id' },
    ];
    for (const { field, ...ref } of bad) {
      const res = await api.post(`${account.path}/conversations`, {
        inbox_id: inboxId,
        source_id: sourceId,
        message: { content: 'hi' },
        ...ref,
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].field).toBe(field);
    }
    expect([await count('conversations'), await count('messages'), (await outbox(account.id)).length]).toEqual(before);
    const next = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    expect(next.id).toBe(first.id + 1);
  });

  it('lets an agent create only in their inboxes and assign only members of the inbox', async () => {
    const api = client(t.app, agent.token);
    const hiddenSource = 'hidden-src';
    await newContact(t, account, { name: 'Hidden', inbox_id: hiddenInboxId, source_id: hiddenSource });
    expect(
      (await api.post(`${account.path}/conversations`, { inbox_id: hiddenInboxId, source_id: hiddenSource })).status,
    ).toBe(404);
    const stranger = await newAgent(t, account, 'Stranger');
    const res = await api.post(`${account.path}/conversations`, {
      inbox_id: inboxId,
      source_id: sourceId,
      assignee_id: stranger.id,
    });
    expect(res.status).toBe(422);
    expect(res.body.details[0]).toMatchObject({ field: 'assignee_id' });
    const ok = await api.post(`${account.path}/conversations`, {
      inbox_id: inboxId,
      source_id: sourceId,
      assignee_id: account.admin.id,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.assignee.id).toBe(account.admin.id);
  });
});

describe('access', () => {
  it('hides other accounts, other inboxes and needs a token', async () => {
    const mine = await newConversation(t, account, { inboxId: hiddenInboxId });
    const foreign = await newConversation(t, other);
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/conversations/${foreign.id + 1000}`)).status,
    ).toBe(404);
    expect((await client(t.app, other.admin.token).get(`${other.path}/conversations/${mine.id}`)).status).toBe(404);
    expect((await client(t.app, account.admin.token).get(`${other.path}/conversations/${foreign.id}`)).status).toBe(
      404,
    );
    expect((await client(t.app, agent.token).get(`${account.path}/conversations/${mine.id}`)).status).toBe(404);
    expect(
      (await client(t.app, agent.token).post(`${account.path}/conversations/${mine.id}/toggle_status`, {})).status,
    ).toBe(404);
    expect((await call(t.app, { url: `${account.path}/conversations` })).status).toBe(401);
    expect((await call(t.app, { url: `${account.path}/conversations/${mine.id}` })).status).toBe(401);
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: `${account.path}/conversations/${mine.id}/labels`,
          body: { labels: [] },
        })
      ).status,
    ).toBe(401);
  });

  it('lets a bot change status, priority and assignment but nothing else', async () => {
    const bot = await newBotToken(account);
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, bot);
    expect((await api.post(`${account.path}/conversations/${c.id}/toggle_status`, { status: 'pending' })).status).toBe(
      200,
    );
    expect((await api.post(`${account.path}/conversations/${c.id}/toggle_priority`, { priority: 'high' })).status).toBe(
      200,
    );
    expect(
      (await api.post(`${account.path}/conversations/${c.id}/assignments`, { assignee_id: agent.id })).status,
    ).toBe(200);
    for (const res of [
      await api.get(`${account.path}/conversations`),
      await api.get(`${account.path}/conversations/${c.id}`),
      await api.patch(`${account.path}/conversations/${c.id}`, { priority: 'low' }),
      await api.post(`${account.path}/conversations/${c.id}/labels`, { labels: ['x'] }),
      await api.post(`${account.path}/conversations`, { inbox_id: inboxId, source_id: sourceId }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    const shown = await client(t.app, account.admin.token).get(`${account.path}/conversations/${c.id}`);
    expect(shown.body).toMatchObject({ status: 'pending', priority: 'high', assignee: { id: agent.id }, labels: [] });
  });
});

describe('GET conversations and meta', () => {
  let acc: TestAccount;
  let member: TestUser;
  let inboxA: number;
  let inboxB: number;
  let team: { id: number };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    acc = await newAccount(t, 'Lists');
    member = await newAgent(t, acc, 'Member');
    inboxA = (await newInbox(t, acc)).id;
    inboxB = (await newInbox(t, acc, { type: 'api' }, 'Sales')).id;
    await addInboxMembers(t, acc, inboxA, [member.id]);
    team = await newTeam(t, acc);
    await newContact(t, acc, { name: 'Zed Quux', email: 'zed@quux.test', inbox_id: inboxA, source_id: 'zed' });
    await newContact(t, acc, { name: 'Bob', inbox_id: inboxB, source_id: 'bob' });
    ids.mineOpen = (
      await newConversation(t, acc, { inboxId: inboxA, contactSourceId: 'zed', assigneeId: member.id })
    ).id;
    ids.unassignedOpen = (
      await newConversation(t, acc, { inboxId: inboxA, contactSourceId: 'zed', teamId: team.id })
    ).id;
    ids.adminOpenB = (
      await newConversation(t, acc, { inboxId: inboxB, contactSourceId: 'bob', assigneeId: acc.admin.id })
    ).id;
    ids.pendingB = (await newConversation(t, acc, { inboxId: inboxB, contactSourceId: 'bob', status: 'pending' })).id;
    ids.resolvedA = (await newConversation(t, acc, { inboxId: inboxA, contactSourceId: 'zed' })).id;
    await client(t.app, acc.admin.token).post(`${acc.path}/conversations/${ids.resolvedA}/toggle_status`, {
      status: 'resolved',
    });
    await newMessage(t, acc, ids.adminOpenB, { content: 'Invoice 100% paid_in full' });
    await client(t.app, acc.admin.token).post(`${acc.path}/conversations/${ids.unassignedOpen}/labels`, {
      labels: ['vip'],
    });
  });

  const list = async (token: string, query = '') => {
    const res = await client(t.app, token).get(`${acc.path}/conversations${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { meta: Record<string, number>; payload: { id: number; messages: unknown[] }[] };
  };

  it('lists open conversations by latest activity with counts for every assignee type', async () => {
    const data = await list(acc.admin.token);
    expect(data.payload.map((c) => c.id)).toEqual([ids.adminOpenB, ids.unassignedOpen, ids.mineOpen]);
    expect(data.meta).toEqual({ mine_count: 1, unassigned_count: 1, assigned_count: 2, all_count: 3 });
    expect(data.payload[0].messages).toHaveLength(1);
  });

  it('filters by status, assignee type, inbox, team, labels and search; counts ignore assignee_type', async () => {
    const admin = acc.admin.token;
    expect((await list(admin, '?status=all')).payload).toHaveLength(5);
    expect((await list(admin, '?status=pending')).payload.map((c) => c.id)).toEqual([ids.pendingB]);
    expect((await list(admin, '?status=resolved')).payload.map((c) => c.id)).toEqual([ids.resolvedA]);
    const unassigned = await list(admin, '?assignee_type=unassigned');
    expect(unassigned.payload.map((c) => c.id)).toEqual([ids.unassignedOpen]);
    expect(unassigned.meta.all_count).toBe(3);
    expect((await list(admin, '?assignee_type=assigned')).payload.map((c) => c.id)).toEqual([
      ids.adminOpenB,
      ids.mineOpen,
    ]);
    expect((await list(admin, '?assignee_type=me')).payload.map((c) => c.id)).toEqual([ids.adminOpenB]);
    expect((await list(admin, `?inbox_id=${inboxB}&status=all`)).payload.map((c) => c.id)).toEqual([
      ids.adminOpenB,
      ids.pendingB,
    ]);
    expect((await list(admin, `?team_id=${team.id}`)).payload.map((c) => c.id)).toEqual([ids.unassignedOpen]);
    expect((await list(admin, '?labels[]=VIP&labels[]=other')).payload.map((c) => c.id)).toEqual([ids.unassignedOpen]);
    expect((await list(admin, '?labels=vip')).meta).toMatchObject({ all_count: 1 });
    expect((await list(admin, '?q=100%25%20paid_in')).payload.map((c) => c.id)).toEqual([ids.adminOpenB]);
    // % and _ in the search term match themselves only.
    expect((await list(admin, '?q=%25&status=all')).payload.map((c) => c.id)).toEqual([ids.adminOpenB]);
    expect((await list(admin, '?q=Invoice%201_0&status=all')).payload).toEqual([]);
    expect((await list(admin, '?q=QUUX&status=all')).payload.map((c) => c.id).sort()).toEqual(
      [ids.mineOpen, ids.unassignedOpen, ids.resolvedA].sort(),
    );
    expect((await list(admin, '?q=zed@quux')).meta.all_count).toBe(2);
  });

  it('shows agents only the conversations of their inboxes', async () => {
    const data = await list(member.token, '?status=all');
    expect(data.payload.map((c) => c.id).sort()).toEqual([ids.mineOpen, ids.unassignedOpen, ids.resolvedA].sort());
    expect((await list(member.token)).meta).toEqual({
      mine_count: 1,
      unassigned_count: 1,
      assigned_count: 1,
      all_count: 2,
    });
    const loner = await newAgent(t, acc, 'Loner');
    expect(await list(loner.token)).toEqual({
      meta: { mine_count: 0, unassigned_count: 0, assigned_count: 0, all_count: 0 },
      payload: [],
    });
  });

  it('answers meta with the same filters', async () => {
    const api = client(t.app, acc.admin.token);
    expect((await api.get(`${acc.path}/conversations/meta`)).body).toEqual({
      meta: { mine_count: 1, unassigned_count: 1, assigned_count: 2, all_count: 3 },
    });
    expect((await api.get(`${acc.path}/conversations/meta?status=all&inbox_id=${inboxB}`)).body.meta).toEqual({
      mine_count: 1,
      unassigned_count: 1,
      assigned_count: 1,
      all_count: 2,
    });
    expect(
      (await client(t.app, member.token).get(`${acc.path}/conversations/meta?status=all`)).body.meta.all_count,
    ).toBe(3);
  });

  it('rejects bad list queries with 422', async () => {
    const api = client(t.app, acc.admin.token);
    for (const query of [
      '?status=closed',
      '?assignee_type=everyone',
      '?page=-1',
      '?inbox_id=abc',
      `?q=${'x'.repeat(300)}`,
    ]) {
      const res = await api.get(`${acc.path}/conversations${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('pages by 25 and moves a conversation up when it has new activity', async () => {
    const big = await newAccount(t, 'Big');
    const inbox = (await newInbox(t, big)).id;
    await newContact(t, big, { name: 'Many', inbox_id: inbox, source_id: 'many' });
    const created: number[] = [];
    for (let i = 0; i < 26; i++)
      created.push((await newConversation(t, big, { inboxId: inbox, contactSourceId: 'many' })).id);
    const api = client(t.app, big.admin.token);
    const page1 = (await api.get(`${big.path}/conversations`)).body.data;
    const page2 = (await api.get(`${big.path}/conversations?page=2`)).body.data;
    expect(page1.payload).toHaveLength(25);
    expect(page2.payload).toHaveLength(1);
    expect(page1.meta.all_count).toBe(26);
    expect(new Set([...page1.payload, ...page2.payload].map((c: { id: number }) => c.id)).size).toBe(26);
    await newMessage(t, big, created[0], { message_type: 'incoming' });
    const top = (await api.get(`${big.path}/conversations`)).body.data.payload[0];
    expect(top.id).toBe(created[0]);
    expect(top.unread_count).toBe(1);
    expect((await api.get(`${big.path}/conversations?page=3`)).body.data.payload).toEqual([]);
  });
});
