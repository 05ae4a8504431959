import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
import { countRows } from '../../../../test/helpers/db.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

const hook = { url: 'https://hooks.example.test/ponte', subscriptions: ['message_created', 'conversation_created'] };

describe('webhook registration', () => {
  it('creates (secret shown once), lists, shows, updates and deletes', async () => {
    const api = client(t.app, account.admin.token);
    const created = await api.post(`${account.path}/webhooks`, { ...hook, name: 'CRM sync' });
    expect(created.status).toBe(200);
    const webhook = created.body.payload.webhook;
    expect(webhook).toMatchObject({ ...hook, name: 'CRM sync', account_id: account.id });
    // The id at the top too, beside Chatwoot's payload (NooviChat's trigger node reads it there).
    expect(created.body.id).toBe(webhook.id);
    expect(Object.keys(created.body).sort()).toEqual(['id', 'payload']);
    expect(webhook.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const list = await api.get(`${account.path}/webhooks`);
    expect(list.body.payload.webhooks).toHaveLength(1);
    expect(list.body.payload.webhooks[0].secret).toBeUndefined();
    const shown = await api.get(`${account.path}/webhooks/${webhook.id}`);
    expect(shown.body.payload.webhook).toMatchObject({ id: webhook.id, url: hook.url });
    expect(shown.body.payload.webhook.secret).toBeUndefined();

    const patched = await api.patch(`${account.path}/webhooks/${webhook.id}`, { subscriptions: ['contact_created'] });
    expect(patched.status).toBe(200);
    expect(patched.body.payload.webhook.subscriptions).toEqual(['contact_created']);
    expect(patched.body.payload.webhook.url).toBe(hook.url);

    const deliveries = await api.get(`${account.path}/webhooks/${webhook.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual({ meta: { current_page: 1 }, payload: [] });

    expect((await api.delete(`${account.path}/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await api.get(`${account.path}/webhooks/${webhook.id}`)).status).toBe(404);
  });

  it('accepts a body wrapped in "webhook"', async () => {
    const res = await client(t.app, account.admin.token).post(`${account.path}/webhooks`, { webhook: hook });
    expect(res.status).toBe(200);
    expect(res.body.payload.webhook.url).toBe(hook.url);
  });

  it('refuses unknown events (naming them), bad URLs and non-public destinations, creating nothing', async () => {
    const api = client(t.app, account.admin.token);
    const before = await countRows(t.db, 'webhooks');
    const unknown = await api.post(`${account.path}/webhooks`, {
      url: hook.url,
      subscriptions: ['message_created', 'order_paid', 'nope'],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toContain('order_paid');
    expect(unknown.body.error).toContain('nope');
    const bodies: unknown[] = [
      {},
      { url: hook.url },
      { url: hook.url, subscriptions: [] },
      { url: 'ftp://files.example.test/x', subscriptions: ['message_created'] },
      { url: 'not a url', subscriptions: ['message_created'] },
      { url: 'http://10.0.0.8/hook', subscriptions: ['message_created'] },
      { url: 'http://169.254.169.254/latest/meta-data', subscriptions: ['message_created'] },
      { url: 'http://[::1]:8080/', subscriptions: ['message_created'] },
      { url: 'http://localhost:8080/', subscriptions: ['message_created'] },
      { url: 42, subscriptions: ['message_created'] },
      { url: `https://x.test/${'a'.repeat(3000)}`, subscriptions: ['message_created'] },
    ];
    for (const body of bodies) {
      const res = await api.post(`${account.path}/webhooks`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.code).toEqual(expect.any(String));
    }
    expect(await countRows(t.db, 'webhooks')).toBe(before);
    // Allowed explicitly by WEBHOOK_ALLOWED_HOSTS.
    expect(
      (
        await api.post(`${account.path}/webhooks`, {
          url: 'http://127.0.0.1:9/hook',
          subscriptions: ['message_created'],
        })
      ).status,
    ).toBe(200);
  });

  it('keeps webhooks inside their account and for administrators', async () => {
    const theirs = (await client(t.app, other.admin.token).post(`${other.path}/webhooks`, hook)).body.payload.webhook;
    const api = client(t.app, account.admin.token);
    expect((await api.get(`${account.path}/webhooks/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`${account.path}/webhooks/${theirs.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`${account.path}/webhooks/${theirs.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/webhooks/${theirs.id}/deliveries`)).status).toBe(404);
    expect((await api.get(`${other.path}/webhooks`)).status).toBe(404);
    const agent = await newAgent(t, account);
    expect((await client(t.app, agent.token).get(`${account.path}/webhooks`)).status).toBe(403);
    expect((await client(t.app, agent.token).post(`${account.path}/webhooks`, hook)).status).toBe(403);
    expect((await call(t.app, { url: `${account.path}/webhooks` })).status).toBe(401);
  });
});
