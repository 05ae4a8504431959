import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, newInbox, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;

const KEY = 'sk-test-0123456789abcdefSECRET';

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
});
afterAll(async () => {
  await t.close();
});

const apps = (a: TestAccount, id?: string) => `${a.path}/integrations/apps${id === undefined ? '' : `/${id}`}`;
const hooks = (a: TestAccount, id?: number) => `${a.path}/integrations/hooks${id === undefined ? '' : `/${id}`}`;
const rows = () => t.db.selectFrom('integration_hooks').selectAll().orderBy('id').execute();

async function createHook(a: TestAccount, body: Record<string, unknown> = {}) {
  const res = await client(t.app, a.admin.token).post(hooks(a), {
    app_id: 'openai',
    settings: { api_key: KEY },
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; [field: string]: any };
}

describe('{A}/integrations/apps', () => {
  it("lists the apps Ponte runs in Chatwoot's shape, to every member of the account", async () => {
    const res = await client(t.app, agent.token).get(apps(account));
    expect(res.status, res.text).toBe(200);
    expect(res.body.payload.map((a: { id: string }) => a.id)).toEqual(['openai', 'webhook']);
    const [openai, webhook] = res.body.payload;
    expect(openai).toEqual({
      id: 'openai',
      name: 'OpenAI',
      description: expect.stringContaining('OpenAI-compatible'),
      hook_type: 'account',
      enabled: false,
      allow_multiple_hooks: true,
      hooks: [],
      settings_fields: [
        { name: 'api_key', description: expect.any(String), required: true, secret: true, default: null },
        {
          name: 'base_url',
          description: expect.any(String),
          required: false,
          secret: false,
          default: 'https://api.openai.com/v1',
        },
        { name: 'model', description: expect.any(String), required: false, secret: false, default: 'gpt-4o-mini' },
      ],
    });
    expect(webhook).toMatchObject({
      id: 'webhook',
      enabled: false,
      hooks: [],
      settings_fields: [],
      managed_at: '/api/v1/accounts/{account_id}/webhooks',
    });
    expect((await client(t.app, agent.token).get(apps(account, 'openai'))).body).toEqual(openai);
    expect((await client(t.app, agent.token).get(apps(account, 'slack'))).status).toBe(404);
  });

  it('shows the webhook app enabled once the account has a webhook, and openai once it has an enabled hook', async () => {
    const api = client(t.app, account.admin.token);
    const webhook = await api.post(`${account.path}/webhooks`, {
      url: 'https://hooks.example.test/ponte',
      subscriptions: ['message_created'],
    });
    expect(webhook.status, webhook.text).toBe(200);
    const hook = await createHook(account);
    const enabled = async (a: TestAccount) =>
      Object.fromEntries(
        (await client(t.app, a.admin.token).get(apps(a))).body.payload.map((app: { id: string; enabled: boolean }) => [
          app.id,
          app.enabled,
        ]),
      );
    expect(await enabled(account)).toEqual({ openai: true, webhook: true });
    expect(await enabled(other)).toEqual({ openai: false, webhook: false });
    expect((await api.patch(hooks(account, hook.id), { status: 0 })).status).toBe(200);
    expect((await enabled(account)).openai).toBe(false);
    await api.delete(hooks(account, hook.id));
    await api.delete(`${account.path}/webhooks/${webhook.body.payload.webhook.id}`);
  });
});

describe('{A}/integrations/hooks', () => {
  it('creates, shows, updates and deletes an openai hook; the api_key is write-only and sealed at rest', async () => {
    const api = client(t.app, account.admin.token);
    const created = await api.post(hooks(account), {
      app_id: 'openai',
      settings: { api_key: KEY, model: 'gpt-4.1-mini' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      app_id: 'openai',
      inbox_id: null,
      account_id: account.id,
      status: true,
      hook_type: 'account',
      settings: { base_url: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const id = created.body.id as number;
    const [row] = await rows();
    expect(row.secrets).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(KEY);

    // Members read it (the agent needs the hook to use the assistant); the key is in no answer.
    const shown = await client(t.app, agent.token).get(hooks(account, id));
    expect(shown.body).toEqual(created.body);
    const listed = await client(t.app, agent.token).get(apps(account));
    expect(listed.body.payload[0].hooks).toEqual([created.body]);
    for (const res of [created, shown, listed]) expect(res.text).not.toContain(KEY);

    // Settings change field by field; a trailing /chat/completions is dropped; null resets to the default.
    const moved = await api.patch(hooks(account, id), {
      settings: { base_url: 'https://llm.example.test/v1/chat/completions/' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.settings).toEqual({ base_url: 'https://llm.example.test/v1', model: 'gpt-4.1-mini' });
    const reset = await api.patch(hooks(account, id), { settings: { model: null } });
    expect(reset.body.settings).toEqual({ base_url: 'https://llm.example.test/v1', model: 'gpt-4o-mini' });
    // The stored key survived the changes that did not name it (and was sealed again).
    expect((await rows())[0].secrets).toMatch(/^v1\./);

    // Status: Chatwoot's 0/1, booleans, enabled/disabled; Rails clients wrap the body in `hook`.
    expect((await api.patch(hooks(account, id), { status: 0 })).body.status).toBe(false);
    expect((await api.patch(hooks(account, id), { hook: { status: 'enabled' } })).body.status).toBe(true);
    expect((await api.patch(hooks(account, id), { status: false })).body.status).toBe(false);
    expect((await api.patch(hooks(account, id), {})).body.status).toBe(false);

    const deleted = await api.delete(hooks(account, id));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect((await api.get(hooks(account, id))).status).toBe(404);
    expect((await api.delete(hooks(account, id))).status).toBe(404);
    expect(await rows()).toEqual([]);
  });

  it('refuses bad input with 422 naming the field, and changes nothing', async () => {
    const api = client(t.app, account.admin.token);
    const kept = await createHook(account);
    const before = await rows();
    const cases: [Record<string, unknown> | unknown[], string][] = [
      [{}, 'app_id'],
      [{ app_id: 'slack', settings: { api_key: KEY } }, 'app_id'],
      [{ app_id: 'webhook' }, 'app_id'],
      [{ app_id: 'openai' }, 'settings.api_key'],
      [{ app_id: 'openai', settings: {} }, 'settings.api_key'],
      [{ app_id: 'openai', settings: { api_key: 12 } }, 'settings.api_key'],
      [{ app_id: 'openai', settings: { api_key: '   ' } }, 'settings.api_key'],
      [{ app_id: 'openai', settings: { api_key: 'has a space' } }, 'settings.api_key'],
      [{ app_id: 'openai', settings: { api_key: 'k'.repeat(513) } }, 'settings.api_key'],
      [{ app_id: 'openai', settings: { api_key: KEY, temperature: '1' } }, 'settings.temperature'],
      [{ app_id: 'openai', settings: { api_key: KEY, base_url: 'ftp://llm.example.test' } }, 'settings.base_url'],
      [{ app_id: 'openai', settings: { api_key: KEY, base_url: 'not a url' } }, 'settings.base_url'],
      [
        { app_id: 'openai', settings: { api_key: KEY, base_url: 'https://me:pw@llm.example.test/v1' } },
        'settings.base_url',
      ],
      [{ app_id: 'openai', settings: { api_key: KEY, model: ['gpt'] } }, 'settings.model'],
      [{ app_id: 'openai', settings: 'api_key' }, 'settings'],
      [{ app_id: 'openai', status: 5, settings: { api_key: KEY } }, 'status'],
      [{ app_id: 'openai', inbox_id: 'abc', settings: { api_key: KEY } }, 'inbox_id'],
      [{ app_id: 7, settings: { api_key: KEY } }, 'app_id'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(hooks(account), body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      expect(
        res.body.details?.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const patches: [Record<string, unknown>, string][] = [
      [{ settings: { api_key: null } }, 'settings.api_key'],
      [{ settings: { api_key: '' } }, 'settings.api_key'],
      [{ settings: { nope: 'x' } }, 'settings.nope'],
      [{ settings: { base_url: 'http://10.0.0.8/v1' } }, 'settings.base_url'],
      [{ status: 2 }, 'status'],
    ];
    for (const [body, field] of patches) {
      const res = await api.patch(hooks(account, kept.id), body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body.details?.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await rows()).toEqual(before);
    await api.delete(hooks(account, kept.id));
  });

  it('keeps one hook per app and scope, the account or one inbox (409); an inbox takes its hooks along', async () => {
    const api = client(t.app, account.admin.token);
    const inbox = await newInbox(t, account);
    const theirInbox = await newInbox(t, other);
    const accountWide = await createHook(account);
    const inInbox = await createHook(account, { inbox_id: inbox.id });
    expect(inInbox).toMatchObject({ inbox_id: inbox.id, hook_type: 'inbox' });
    const before = await rows();
    const again = await api.post(hooks(account), { app_id: 'openai', settings: { api_key: KEY } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', details: [{ field: 'app_id' }] });
    const againInInbox = await api.post(hooks(account), {
      app_id: 'openai',
      inbox_id: String(inbox.id),
      settings: { api_key: KEY },
    });
    expect(againInInbox.status).toBe(409);
    expect(againInInbox.body).toMatchObject({ details: [{ field: 'inbox_id' }] });
    // Another account's inbox is not found, as any id in a body (decisions/0003).
    const foreign = await api.post(hooks(account), {
      app_id: 'openai',
      inbox_id: theirInbox.id,
      settings: { api_key: KEY },
    });
    expect(foreign.status).toBe(404);
    expect(await rows()).toEqual(before);

    expect((await api.delete(`${account.path}/inboxes/${inbox.id}`)).status).toBe(200);
    expect((await api.get(hooks(account, inInbox.id))).status).toBe(404);
    expect((await api.get(hooks(account, accountWide.id))).status).toBe(200);
    await api.delete(hooks(account, accountWide.id));
  });

  it('refuses endpoints at private addresses unless WEBHOOK_ALLOWED_HOSTS allows them', async () => {
    const strict = await buildChatTestApp({}, { sameDatabaseAs: t });
    try {
      const body = (base_url: string) => ({ app_id: 'openai', settings: { api_key: KEY, base_url } });
      for (const url of [
        'http://127.0.0.1:11434/v1',
        'http://localhost:11434/v1',
        'http://10.1.2.3/v1',
        'http://192.168.0.10/v1',
        'http://169.254.169.254/latest',
        'http://[::1]:8080/v1',
        'http://[::ffff:127.0.0.1]/v1',
      ]) {
        const res = await client(strict.app, account.admin.token).post(hooks(account), body(url));
        expect(res.status, `${url}: ${res.text}`).toBe(422);
        expect(res.body.details).toEqual([{ field: 'settings.base_url', message: expect.stringContaining('public') }]);
      }
      // This instance allows 127.0.0.1 (as the webhook tests do), and nothing else private.
      expect((await client(t.app, account.admin.token).post(hooks(account), body('http://10.1.2.3/v1'))).status).toBe(
        422,
      );
      const local = await client(t.app, account.admin.token).post(hooks(account), body('http://127.0.0.1:11434/v1/'));
      expect(local.status, local.text).toBe(200);
      expect(local.body.settings.base_url).toBe('http://127.0.0.1:11434/v1');
      await client(t.app, account.admin.token).delete(hooks(account, local.body.id));
    } finally {
      await strict.close();
    }
  });

  it("answers 404 to another account's hooks, 403 to agents on writes, 401 without a token", async () => {
    const mine = await createHook(account);
    const theirs = await createHook(other);
    const before = await rows();
    const admin = client(t.app, account.admin.token);
    expect((await admin.get(hooks(account, theirs.id))).status).toBe(404);
    expect((await admin.patch(hooks(account, theirs.id), { status: 0 })).status).toBe(404);
    expect((await admin.delete(hooks(account, theirs.id))).status).toBe(404);
    // Not a member of the other account: it does not exist for this token.
    expect((await admin.get(apps(other))).status).toBe(404);
    expect((await admin.get(hooks(other, theirs.id))).status).toBe(404);
    expect((await admin.post(hooks(other), { app_id: 'openai', settings: { api_key: KEY } })).status).toBe(404);

    const asAgent = client(t.app, agent.token);
    for (const res of [
      await asAgent.post(hooks(account), { app_id: 'openai', inbox_id: null, settings: { api_key: KEY } }),
      await asAgent.patch(hooks(account, mine.id), { settings: { model: 'other' } }),
      await asAgent.delete(hooks(account, mine.id)),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden' });
    }
    expect((await call(t.app, { url: apps(account) })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: hooks(account), body: { app_id: 'openai' } })).status).toBe(401);
    expect(await rows()).toEqual(before);
    await admin.delete(hooks(account, mine.id));
    await client(t.app, other.admin.token).delete(hooks(other, theirs.id));
  });
});
