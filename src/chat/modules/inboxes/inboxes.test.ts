import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { countRows } from '../../../../test/helpers/db.js';
import {
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  type TestAccount,
} from '../../../../test/helpers/factories.js';

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

const inboxRow = (id: number) => t.db.selectFrom('inboxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('inboxes', () => {
  it('creates, lists, shows, updates and deletes inboxes of every kind', async () => {
    const api = client(t.app, account.admin.token);
    const widget = await api.post(`${account.path}/inboxes`, {
      name: 'Website',
      channel: { type: 'web_widget', website_url: 'https://acme.test' },
      greeting_enabled: true,
      greeting_message: 'Hi!',
      timezone: 'America/Sao_Paulo',
    });
    expect(widget.status, JSON.stringify(widget.body)).toBe(200);
    expect(widget.body).toMatchObject({
      name: 'Website',
      account_id: account.id,
      channel_type: 'Channel::WebWidget',
      website_url: 'https://acme.test',
      greeting_enabled: true,
      greeting_message: 'Hi!',
      timezone: 'America/Sao_Paulo',
      hmac_mandatory: false,
    });
    expect(widget.body.inbox_identifier).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(widget.body.hmac_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const api2 = await api.post(`${account.path}/inboxes`, {
      inbox: { name: 'API', channel: { type: 'api', webhook_url: 'https://bridge.test/hook' } },
    });
    expect(api2.body).toMatchObject({
      channel_type: 'Channel::Api',
      webhook_url: 'https://bridge.test/hook',
      timezone: 'UTC',
    });
    const mail = await api.post(`${account.path}/inboxes`, {
      name: 'Mail',
      channel: { type: 'email', email: 'Help@Acme.test' },
    });
    expect(mail.body).toMatchObject({
      channel_type: 'Channel::Email',
      email: 'help@acme.test',
      inbox_identifier: null,
    });

    const list = await api.get(`${account.path}/inboxes`);
    expect(list.body.payload.map((i: { id: number }) => i.id)).toEqual(
      expect.arrayContaining([widget.body.id, api2.body.id, mail.body.id]),
    );
    expect((await api.get(`${account.path}/inboxes/${widget.body.id}`)).body).toEqual(widget.body);

    const patched = await api.patch(`${account.path}/inboxes/${widget.body.id}`, {
      name: 'Site',
      timezone: 'Europe/Lisbon',
      working_hours_enabled: true,
      channel: { website_url: 'https://www.acme.test' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Site',
      timezone: 'Europe/Lisbon',
      working_hours_enabled: true,
      website_url: 'https://www.acme.test',
      channel_type: 'Channel::WebWidget',
    });

    expect((await api.delete(`${account.path}/inboxes/${mail.body.id}`)).status).toBe(200);
    expect((await api.get(`${account.path}/inboxes/${mail.body.id}`)).status).toBe(404);
  });

  it('deleting an inbox removes its conversations', async () => {
    const inbox = await newInbox(t, account);
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    expect((await client(t.app, account.admin.token).delete(`${account.path}/inboxes/${inbox.id}`)).status).toBe(200);
    const left = await t.db
      .selectFrom('conversations')
      .select('id')
      .where('account_id', '=', account.id)
      .where('display_id', '=', conversation.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('rejects bad input with 422 naming the field, and changes nothing (security review: URLs and time zones are checked)', async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account, { type: 'web_widget', website_url: 'https://acme.test' });
    const before = await inboxRow(inbox.id);
    const inboxes = await countRows(t.db, 'inboxes');
    const creates: [Record<string, unknown>, string][] = [
      [{ channel: { type: 'api' } }, 'name'],
      [{ name: 'x' }, 'channel'],
      [{ name: 'x', channel: { type: 'carrier_pigeon' } }, 'channel.type'],
      [{ name: 'x', channel: { type: 'web_widget', website_url: 'javascript:alert(1)' } }, 'channel.website_url'],
      [{ name: 'x', channel: { type: 'api', webhook_url: 'ftp://files.test/' } }, 'channel.webhook_url'],
      [{ name: 'x', channel: { type: 'api' }, timezone: 'Not/AZone' }, 'timezone'],
      [{ name: 'x', channel: { type: 'api' }, timezone: 'GMT+3' }, 'timezone'],
      [{ name: 'x', channel: { type: 'email' } }, 'channel.email'],
      [{ name: 'x', channel: { type: 'api' }, greeting_enabled: 'yes' }, 'greeting_enabled'],
    ];
    for (const [body, field] of creates) {
      const res = await api.post(`${account.path}/inboxes`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    for (const body of [
      { timezone: 'Not/AZone' },
      { channel: { website_url: 'javascript:alert(1)' } },
      { name: 'x'.repeat(256) },
      { name: 5 },
    ]) {
      const res = await api.patch(`${account.path}/inboxes/${inbox.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await inboxRow(inbox.id)).toEqual(before);
    expect(await countRows(t.db, 'inboxes')).toBe(inboxes);
  });

  it('ignores protected and unknown fields: id, account_id, identifier, hmac_token, created_at', async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account);
    const before = await inboxRow(inbox.id);
    const res = await api.patch(`${account.path}/inboxes/${inbox.id}`, {
      id: 999,
      account_id: other.id,
      identifier: 'chosen',
      hmac_token: 'chosen',
      created_at: 1,
      channel: { hmac_token: 'chosen' },
      bogus: 1,
    });
    expect(res.status).toBe(200);
    const after = await inboxRow(inbox.id);
    expect({ ...after, updated_at: before.updated_at }).toEqual(before);
  });

  it("answers 404 for another account's inbox, 403 to agents on writes, and agents see only their inboxes", async () => {
    const theirs = await newInbox(t, other);
    const api = client(t.app, account.admin.token);
    expect((await api.get(`${account.path}/inboxes/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`${account.path}/inboxes/${theirs.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`${account.path}/inboxes/${theirs.id}`)).status).toBe(404);
    expect((await call(t.app, { url: `${account.path}/inboxes` })).status).toBe(401);

    const agent = await newAgent(t, account);
    const mine = await newInbox(t, account, { type: 'api' }, 'Agent inbox');
    const notMine = await newInbox(t, account, { type: 'api' }, 'Not the agent inbox');
    await api.post(`${account.path}/inbox_members`, { inbox_id: mine.id, user_ids: [agent.id] });
    const agentApi = client(t.app, agent.token);
    const listed = (await agentApi.get(`${account.path}/inboxes`)).body.payload;
    expect(listed.map((i: { id: number }) => i.id)).toEqual([mine.id]);
    expect(listed[0].hmac_token).toBeUndefined();
    expect((await agentApi.get(`${account.path}/inboxes/${notMine.id}`)).status).toBe(404);
    for (const res of [
      await agentApi.post(`${account.path}/inboxes`, { name: 'x', channel: { type: 'api' } }),
      await agentApi.patch(`${account.path}/inboxes/${mine.id}`, { name: 'x' }),
      await agentApi.delete(`${account.path}/inboxes/${mine.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });
});
