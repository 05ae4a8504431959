import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { outboxEvents } from '../../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newTeam,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let inboxId: number;
const sourceId = 'source-main';

const outbox = (accountId: number, name?: string) => outboxEvents(t.db, accountId, name);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Alice Agent');
  inboxId = (await newInbox(t, account)).id;
  await addInboxMembers(t, account, inboxId, [agent.id]);
  await newContact(t, account, { name: 'Maria Silva', inbox_id: inboxId, source_id: sourceId });
});
afterAll(async () => {
  await t.close();
});

describe('PATCH, toggle_status and toggle_priority', () => {
  it('updates fields, merges attributes and records the changes', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const team = await newTeam(t, account);
    const api = client(t.app, account.admin.token);
    await api.patch(`${account.path}/conversations/${c.id}`, { custom_attributes: { a: 1 } });
    const before = (await outbox(account.id)).length;
    const res = await api.patch(`${account.path}/conversations/${c.id}`, {
      status: 'resolved',
      priority: 'urgent',
      team_id: team.id,
      assignee_id: agent.id,
      custom_attributes: { b: 2 },
      additional_attributes: { referer: 'https://x.test' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: c.id,
      status: 'resolved',
      priority: 'urgent',
      team: { id: team.id },
      assignee: { id: agent.id },
      custom_attributes: { a: 1, b: 2 },
      additional_attributes: { referer: 'https://x.test' },
    });
    const events = (await outbox(account.id)).slice(before);
    expect(events.map((e) => e.name)).toEqual(['conversation_status_changed', 'conversation_updated']);
    expect(events[0].payload.changed_attributes).toEqual([
      { status: { previous_value: 'open', current_value: 'resolved' } },
    ]);
    const keys = events[1].payload.changed_attributes.map((ch: object) => Object.keys(ch)[0]).sort();
    expect(keys).toEqual(['additional_attributes', 'assignee_id', 'custom_attributes', 'priority', 'team_id']);
    expect(events[1].payload.changed_attributes).toContainEqual({
      priority: { previous_value: 'none', current_value: 'urgent' },
    });

    const again = (await outbox(account.id)).length;
    expect(
      (await api.patch(`${account.path}/conversations/${c.id}`, { status: 'resolved', priority: 'urgent' })).status,
    ).toBe(200);
    expect((await outbox(account.id)).length).toBe(again);
  });

  it('rejects bad updates with 422, changing nothing', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const before = (await outbox(account.id)).length;
    for (const body of [
      { status: 'snoozed' },
      { priority: 'extreme' },
      { assignee_id: 'me' },
      { team_id: 999999 },
      { assignee_id: 999999 },
      { custom_attributes: 'x' },
    ]) {
      const res = await api.patch(`${account.path}/conversations/${c.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await outbox(account.id)).length).toBe(before);
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body).toMatchObject({
      status: 'open',
      priority: 'none',
      assignee: null,
      team: null,
    });
  });

  it('toggles status: flips open/resolved, snoozes until a time, and records only real changes', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/toggle_status`;
    const before = (await outbox(account.id, 'conversation_status_changed')).length;
    const flipped = await api.post(url, {});
    expect(flipped.status).toBe(200);
    expect(flipped.body).toEqual({
      meta: {},
      payload: { success: true, conversation_id: c.id, current_status: 'resolved', snoozed_until: null },
    });
    expect((await api.post(url, {})).body.payload.current_status).toBe('open');
    const until = Math.floor(Date.now() / 1000) + 3600;
    const snoozed = await api.post(url, { status: 'snoozed', snoozed_until: until });
    expect(snoozed.body.payload).toMatchObject({ current_status: 'snoozed', snoozed_until: until });
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body.snoozed_until).toBe(until);
    expect((await api.post(url, { status: 'snoozed' })).body.payload).toMatchObject({
      current_status: 'snoozed',
      snoozed_until: null,
    });
    const changes = (await outbox(account.id, 'conversation_status_changed')).slice(before);
    expect(changes.map((e) => e.payload.changed_attributes[0].status)).toEqual([
      { previous_value: 'open', current_value: 'resolved' },
      { previous_value: 'resolved', current_value: 'open' },
      { previous_value: 'open', current_value: 'snoozed' },
    ]);
    expect(changes[0].payload).toMatchObject({ event: 'conversation_status_changed', id: c.id, status: 'resolved' });
    expect((await api.post(url, { status: 'pending' })).body.payload.current_status).toBe('pending');
  });

  it('rejects snoozed_until without snoozed, in the past, or malformed', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/toggle_status`;
    const future = Math.floor(Date.now() / 1000) + 3600;
    for (const body of [
      { status: 'open', snoozed_until: future },
      { status: 'snoozed', snoozed_until: 1000 },
      { status: 'snoozed', snoozed_until: 'tomorrow' },
      { status: 'closed' },
    ]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body.status).toBe('open');
  });

  it('toggles priority, "none" clears it', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/toggle_priority`;
    expect(await api.post(url, { priority: 'low' })).toMatchObject({ status: 200, body: {} });
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body.priority).toBe('low');
    await api.post(url, { priority: 'none' });
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body.priority).toBe('none');
    expect((await api.post(url, { priority: 'critical' })).status).toBe(422);
    expect((await api.post(url, {})).status).toBe(422);
    expect(
      (
        await client(t.app, other.admin.token).post(`${other.path}/conversations/${c.id + 500}/toggle_priority`, {
          priority: 'low',
        })
      ).status,
    ).toBe(404);
  });
});

describe('labels and assignments', () => {
  it('replaces labels (normalized) and lists them', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/labels`;
    expect((await api.get(url)).body).toEqual({ payload: [] });
    const set = await api.post(url, { labels: ['Billing', ' vip ', 'billing'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ payload: ['billing', 'vip'] });
    expect((await api.post(url, { labels: ['vip', 'urgent'] })).body).toEqual({ payload: ['urgent', 'vip'] });
    expect((await api.get(url)).body).toEqual({ payload: ['urgent', 'vip'] });
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body.labels).toEqual(['urgent', 'vip']);
    const updates = await outbox(account.id, 'conversation_updated');
    expect(updates.at(-1)!.payload.changed_attributes).toEqual([
      { labels: { previous_value: ['billing', 'vip'], current_value: ['urgent', 'vip'] } },
    ]);
    for (const body of [
      {},
      { labels: { vip: 1 } },
      { labels: ['a,b'] },
      { labels: [''] },
      { labels: ['x'.repeat(256)] },
    ]) {
      expect((await api.post(url, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.get(url)).body).toEqual({ payload: ['urgent', 'vip'] });
    expect(
      (await client(t.app, other.admin.token).get(`${other.path}/conversations/${c.id + 500}/labels`)).status,
    ).toBe(404);
  });

  it('assigns an agent (returns the agent), a team (returns the team) and unassigns (null)', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const team = await newTeam(t, account);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/assignments`;
    const assigned = await api.post(url, { assignee_id: agent.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ id: agent.id, name: 'Alice Agent', role: 'agent', account_id: account.id });
    const teamed = await api.post(url, { team_id: team.id });
    expect(teamed.body).toEqual({
      id: team.id,
      name: team.name,
      description: null,
      allow_auto_assign: true,
      account_id: account.id,
      is_member: false,
    });
    const unassigned = await api.post(url, { assignee_id: null });
    expect(unassigned.status).toBe(200);
    expect(unassigned.body).toBeNull();
    expect((await api.get(`${account.path}/conversations/${c.id}`)).body).toMatchObject({
      assignee: null,
      team: { id: team.id },
    });
    const updates = await outbox(account.id, 'conversation_updated');
    expect(updates.at(-1)!.payload.changed_attributes).toEqual([
      { assignee_id: { previous_value: agent.id, current_value: null } },
    ]);
  });

  it('rejects assignments to outsiders or without a target', async () => {
    const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId });
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${c.id}/assignments`;
    const outsider = await newAgent(t, other);
    const before = (await outbox(account.id)).length;
    for (const [body, field] of [
      [{ assignee_id: outsider.id }, 'assignee_id'],
      [{ team_id: 999999 }, 'team_id'],
      [{}, 'assignee_id'],
    ] as const) {
      const res = await api.post(url, body);
      expect(res.status).toBe(422);
      expect(res.body.details[0].field).toBe(field);
    }
    expect((await api.post(url, { assignee_id: 'x' })).status).toBe(422);
    expect((await outbox(account.id)).length).toBe(before);
  });
});

describe('POST update_last_seen', () => {
  it('resets unread_count for the agent; newer incoming messages count again', async () => {
    const conversation = await newConversation(t, account);
    const api = client(t.app, account.admin.token);
    const base = `${account.path}/conversations/${conversation.id}`;
    const incoming = () => api.post(`${base}/messages`, { content: 'from the customer', message_type: 'incoming' });
    expect((await incoming()).status).toBe(200);
    expect((await api.get(base)).body.unread_count).toBe(1);
    const seen = await api.post(`${base}/update_last_seen`);
    expect(seen.status).toBe(200);
    expect((await api.get(base)).body.unread_count).toBe(0);
    expect((await api.get(base)).body.agent_last_seen_at).toEqual(expect.any(Number));
    await new Promise((r) => setTimeout(r, 5));
    await incoming();
    expect((await api.get(base)).body.unread_count).toBe(1);
    expect(
      (await client(t.app, other.admin.token).post(`${other.path}/conversations/999999/update_last_seen`)).status,
    ).toBe(404);
    expect(
      (await client(t.app, account.admin.token).post(`${other.path}/conversations/${conversation.id}/update_last_seen`))
        .status,
    ).toBe(404);
  });
});
