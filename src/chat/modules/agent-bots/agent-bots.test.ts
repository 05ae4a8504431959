import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { conversationRow } from '../../../../test/helpers/db.js';
import {
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { ensurePlatformApp } from '../../platform/platform.bootstrap.js';

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

const botBody = { name: 'Helper bot', description: 'Answers FAQs', outgoing_url: 'https://bot.example.test/hook' };

describe('account agent bots', () => {
  it('creates, lists, shows, updates and deletes a bot; its token is returned to administrators', async () => {
    const api = client(t.app, account.admin.token);
    const created = await api.post(`${account.path}/agent_bots`, botBody);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...botBody, account_id: account.id, bot_type: 'webhook', system_bot: false });
    expect(created.body.access_token).toMatch(/^[A-Za-z0-9_-]{24,}$/);

    const list = await api.get(`${account.path}/agent_bots`);
    expect(list.body.map((b: { id: number }) => b.id)).toEqual([created.body.id]);
    expect(list.body[0].access_token).toBeUndefined();

    const shown = await api.get(`${account.path}/agent_bots/${created.body.id}`);
    expect(shown.body.access_token).toBe(created.body.access_token);

    const patched = await api.patch(`${account.path}/agent_bots/${created.body.id}`, { name: 'Renamed' });
    expect(patched.body.name).toBe('Renamed');
    expect(patched.body.outgoing_url).toBe(botBody.outgoing_url);

    expect((await api.delete(`${account.path}/agent_bots/${created.body.id}`)).status).toBe(200);
    expect((await api.get(`${account.path}/agent_bots/${created.body.id}`)).status).toBe(404);
    // The deleted bot's token no longer authenticates.
    expect((await client(t.app, created.body.access_token).get(`${account.path}/inboxes`)).status).toBe(401);
  });

  it('rejects bad input and changes nothing', async () => {
    const api = client(t.app, account.admin.token);
    for (const body of [
      {},
      { name: 'x' },
      { name: 'x', outgoing_url: 'ftp://x' },
      { name: 7, outgoing_url: 'https://x' },
      { name: 'x'.repeat(256), outgoing_url: 'https://x' },
    ]) {
      const res = await api.post(`${account.path}/agent_bots`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await api.get(`${account.path}/agent_bots`)).body).toEqual([]);
  });

  it('PATCH writes only name, description and outgoing_url: a bot cannot be moved to another account (security review: mass assignment)', async () => {
    const api = client(t.app, account.admin.token);
    const bot = (await api.post(`${account.path}/agent_bots`, botBody)).body;
    const before = await t.db.selectFrom('agent_bots').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
    const attacks = [
      { account_id: other.id, secret: 'attacker-secret' },
      { id: 'x' },
      { id: 999999, bot_type: 'csml' },
      { created_at: 'not-a-time' },
      { nonexistent_column: 1 },
      { secret: {} },
    ];
    for (const body of attacks) {
      const res = await api.patch(`${account.path}/agent_bots/${bot.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ id: bot.id, account_id: account.id, bot_type: 'webhook' });
    }
    const after = await t.db.selectFrom('agent_bots').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
    expect({ ...after, updated_at: before.updated_at }).toEqual(before);
    // The list still answers, the bot's token still cannot reach the other account.
    expect((await api.get(`${account.path}/agent_bots`)).status).toBe(200);
    const foreign = await newConversation(t, other);
    const attempt = await client(t.app, bot.access_token).post(`${other.path}/conversations/${foreign.id}/messages`, {
      content: 'hijack',
    });
    expect(attempt.status).toBe(404);
  });

  it('keeps bots inside their account', async () => {
    const bot = (await client(t.app, other.admin.token).post(`${other.path}/agent_bots`, botBody)).body;
    const api = client(t.app, account.admin.token);
    expect((await api.get(`${account.path}/agent_bots/${bot.id}`)).status).toBe(404);
    expect((await api.patch(`${account.path}/agent_bots/${bot.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`${account.path}/agent_bots/${bot.id}`)).status).toBe(404);
    const inbox = await newInbox(t, account);
    expect((await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id })).status).toBe(
      404,
    );
    // A bot's token acts only in its own account.
    expect((await client(t.app, bot.access_token).get(`${account.path}/inboxes`)).status).toBe(404);
  });

  it('answers 401 without a token and 403 to agents', async () => {
    expect((await call(t.app, { url: `${account.path}/agent_bots` })).status).toBe(401);
    const agent = await newAgent(t, account);
    const res = await client(t.app, agent.token).post(`${account.path}/agent_bots`, botBody);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('a bot token is refused on routes bots may not use', async () => {
    const bot = (await client(t.app, account.admin.token).post(`${account.path}/agent_bots`, botBody)).body;
    const res = await client(t.app, bot.access_token).get(`${account.path}/inboxes`);
    expect(res.status).toBe(403);
    expect((await client(t.app, bot.access_token).get('/api/v1/profile')).status).toBe(401);
  });

  it('a bot token sends messages, toggles status and priority, and assigns; nothing else', async () => {
    const bot = (await client(t.app, account.admin.token).post(`${account.path}/agent_bots`, botBody)).body;
    const conversation = await newConversation(t, account);
    const botApi = client(t.app, bot.access_token);
    const base = `${account.path}/conversations/${conversation.id}`;
    const message = await botApi.post(`${base}/messages`, { content: 'Hello from the bot' });
    expect(message.status).toBe(200);
    expect(message.body.sender).toMatchObject({ id: bot.id, type: 'agent_bot' });
    expect(message.body.message_type).toBe(1);
    const toggled = await botApi.post(`${base}/toggle_status`, { status: 'pending' });
    expect(toggled.status).toBe(200);
    expect(toggled.body.payload.current_status).toBe('pending');
    expect((await botApi.post(`${base}/toggle_priority`, { priority: 'high' })).status).toBe(200);
    expect((await botApi.post(`${base}/assignments`, { assignee_id: account.admin.id })).status).toBe(200);
    // Not allowed for bots: reading lists, changing the conversation otherwise, deleting messages.
    expect((await botApi.get(`${account.path}/conversations`)).status).toBe(403);
    expect((await botApi.patch(base, { status: 'resolved' })).status).toBe(403);
    expect((await botApi.delete(`${base}/messages/${message.body.id}`)).status).toBe(403);
    // And not in another account.
    const foreign = await newConversation(t, other);
    expect((await botApi.post(`${other.path}/conversations/${foreign.id}/messages`, { content: 'x' })).status).toBe(
      404,
    );
  });

  it('connects a bot to an inbox and disconnects it', async () => {
    const api = client(t.app, account.admin.token);
    const bot = (await api.post(`${account.path}/agent_bots`, botBody)).body;
    const inbox = await newInbox(t, account);
    expect((await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id })).status).toBe(
      200,
    );
    const row = await t.db
      .selectFrom('inboxes')
      .select('agent_bot_id')
      .where('id', '=', inbox.id)
      .executeTakeFirstOrThrow();
    expect(row.agent_bot_id).toBe(bot.id);
    expect((await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: null })).status).toBe(200);
    const after = await t.db
      .selectFrom('inboxes')
      .select('agent_bot_id')
      .where('id', '=', inbox.id)
      .executeTakeFirstOrThrow();
    expect(after.agent_bot_id).toBeNull();
  });
});

describe('platform global bots', () => {
  it('creates a global bot that only its app manages, usable in an account once connected', async () => {
    const api = client(t.app, t.platformToken);
    const created = await api.post('/platform/api/v1/agent_bots', botBody);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ account_id: null, system_bot: true });
    expect((await api.get('/platform/api/v1/agent_bots')).body.map((b: { id: number }) => b.id)).toContain(
      created.body.id,
    );
    expect(
      (await api.patch(`/platform/api/v1/agent_bots/${created.body.id}`, { description: 'global' })).body.description,
    ).toBe('global');

    const otherApp = 'second-platform-app-token-abcdef';
    await ensurePlatformApp(t.db, otherApp);
    expect((await client(t.app, otherApp).get(`/platform/api/v1/agent_bots/${created.body.id}`)).status).toBe(404);
    expect((await client(t.app, otherApp).get('/platform/api/v1/agent_bots')).body).toEqual([]);

    // Not connected: the global bot cannot act in the account.
    const botApi = client(t.app, created.body.access_token);
    expect((await botApi.get(`${account.path}/inboxes`)).status).toBe(404);
    const inbox = await newInbox(t, account);
    await client(t.app, account.admin.token).post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, {
      agent_bot: created.body.id,
    });
    expect((await botApi.get(`${account.path}/inboxes`)).status).toBe(403);

    expect((await api.delete(`/platform/api/v1/agent_bots/${created.body.id}`)).status).toBe(200);
    expect((await api.get(`/platform/api/v1/agent_bots/${created.body.id}`)).status).toBe(404);
  });

  it('PATCH through the platform ignores account_id, id, secret and unknown keys (security review: mass assignment)', async () => {
    const api = client(t.app, t.platformToken);
    const bot = (await api.post('/platform/api/v1/agent_bots', botBody)).body;
    const before = await t.db.selectFrom('agent_bots').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
    for (const body of [
      { account_id: account.id },
      { secret: 'x', id: 5 },
      { created_at: 'not-a-time' },
      { nonexistent_column: 1 },
    ]) {
      const res = await api.patch(`/platform/api/v1/agent_bots/${bot.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ id: bot.id, account_id: null });
    }
    const after = await t.db.selectFrom('agent_bots').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
    expect({ ...after, updated_at: before.updated_at }).toEqual(before);
  });

  it('acts only on conversations of the inboxes it is connected to (security review: global bot scope)', async () => {
    const created = (await client(t.app, t.platformToken).post('/platform/api/v1/agent_bots', botBody)).body;
    const connected = await newInbox(t, account);
    const elsewhere = await newInbox(t, account);
    await client(t.app, account.admin.token).post(`${account.path}/inboxes/${connected.id}/set_agent_bot`, {
      agent_bot: created.id,
    });
    const inside = await newConversation(t, account, { inboxId: connected.id });
    const outside = await newConversation(t, account, { inboxId: elsewhere.id });
    const botApi = client(t.app, created.access_token);
    const countMessages = async () =>
      Number(
        (
          await t.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countMessages();
    const outsidePath = `${account.path}/conversations/${outside.id}`;
    expect((await botApi.post(`${outsidePath}/messages`, { content: 'not here' })).status).toBe(404);
    expect((await botApi.post(`${outsidePath}/toggle_status`, { status: 'resolved' })).status).toBe(404);
    expect((await botApi.post(`${outsidePath}/toggle_priority`, { priority: 'urgent' })).status).toBe(404);
    expect((await botApi.post(`${outsidePath}/assignments`, { assignee_id: account.admin.id })).status).toBe(404);
    expect(await countMessages()).toBe(before);
    const untouched = await conversationRow(t.db, account.id, outside.id);
    expect(untouched).toMatchObject({ status: 'open', priority: null, assignee_id: null });
    // In its own inbox it works as before.
    expect(
      (await botApi.post(`${account.path}/conversations/${inside.id}/messages`, { content: 'hello' })).status,
    ).toBe(200);
    expect(
      (await botApi.post(`${account.path}/conversations/${inside.id}/toggle_status`, { status: 'pending' })).status,
    ).toBe(200);
  });
});
