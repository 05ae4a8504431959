import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newInbox,
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

describe('GET {A}/inboxes/:id/agent_bot', () => {
  it('answers {agent_bot} with the connected bot (no token), or null', async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account);
    expect((await api.get(`${account.path}/inboxes/${inbox.id}/agent_bot`)).body).toEqual({ agent_bot: null });
    const bot = (
      await api.post(`${account.path}/agent_bots`, { name: 'Helper', outgoing_url: 'https://bot.example.test' })
    ).body;
    await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: String(bot.id) });
    const res = await api.get(`${account.path}/inboxes/${inbox.id}/agent_bot`);
    expect(res.status).toBe(200);
    expect(res.body.agent_bot).toMatchObject({ id: bot.id, name: 'Helper', outgoing_url: 'https://bot.example.test' });
    expect(res.body.agent_bot.access_token).toBeUndefined();
    expect(res.body.agent_bot.secret).toBeUndefined();
    // A global bot connected to the inbox shows too.
    const global = (
      await client(t.app, t.platformToken).post('/platform/api/v1/agent_bots', {
        name: 'Global',
        outgoing_url: 'https://global.example.test',
      })
    ).body;
    await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: global.id });
    expect((await api.get(`${account.path}/inboxes/${inbox.id}/agent_bot`)).body.agent_bot).toMatchObject({
      id: global.id,
      system_bot: true,
    });
  });

  it("is shown to the inbox's agents only; 404 for another account's inbox; 401 without a token", async () => {
    const inbox = await newInbox(t, account);
    const member = await newAgent(t, account);
    const stranger = await newAgent(t, account);
    await addInboxMembers(t, account, inbox.id, [member.id]);
    const url = `${account.path}/inboxes/${inbox.id}/agent_bot`;
    expect((await client(t.app, member.token).get(url)).status).toBe(200);
    expect((await client(t.app, stranger.token).get(url)).status).toBe(404);
    const other = await newAccount(t, 'Other');
    const theirs = await newInbox(t, other);
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/inboxes/${theirs.id}/agent_bot`)).status,
    ).toBe(404);
    expect((await call(t.app, { url })).status).toBe(401);
    expect((await client(t.app, account.admin.token).get(`${account.path}/inboxes/x/agent_bot`)).status).toBe(404);
  });
});

describe('GET {A}/inboxes/:id/webhook_deliveries', () => {
  it('is an empty log for an inbox without deliveries; administrators only; 404 across accounts', async () => {
    const inbox = await newInbox(t, account);
    const url = `${account.path}/inboxes/${inbox.id}/webhook_deliveries`;
    expect((await client(t.app, account.admin.token).get(`${url}?page=0`)).body).toEqual({
      meta: { current_page: 1 },
      payload: [],
    });
    const agent = await newAgent(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    expect((await client(t.app, agent.token).get(url)).status).toBe(403);
    const other = await newAccount(t, 'Other');
    expect(
      (await client(t.app, other.admin.token).get(`${other.path}/inboxes/${inbox.id}/webhook_deliveries`)).status,
    ).toBe(404);
    expect((await call(t.app, { url })).status).toBe(401);
  });
});
