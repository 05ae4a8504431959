import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../../../test/helpers/fake-openai.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { TEXT_EVENTS } from './integrations.schema.js';
import { CONTEXT_MESSAGES } from './openai.service.js';

let fake: FakeOpenAi;
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let inbox: { id: number };
let hookId: number;
let conversationId: number;

const KEY = 'sk-live-TESTKEY-0123456789abcdef';

const hooks = (a: TestAccount, id?: number) => `${a.path}/integrations/hooks${id === undefined ? '' : `/${id}`}`;
const processPath = (id = hookId, a = account) => `${hooks(a, id)}/process`;
const event = (name: string, data: Record<string, unknown>) => ({ event: { name, data } });
const reply = (content: string) => ({ status: 200, body: fake.completion({ model: 'test-model' }, content) });

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  // 127.0.0.1 allowed as in the webhook tests; a timeout long enough for a loaded machine.
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', INTEGRATIONS_TIMEOUT_SECONDS: '10' });
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
  inbox = await newInbox(t, account);
  await addInboxMembers(t, account, inbox.id, [agent.id]);
  const hook = await client(t.app, account.admin.token).post(hooks(account), {
    app_id: 'openai',
    settings: { api_key: KEY, base_url: fake.baseUrl, model: 'test-model' },
  });
  expect(hook.status, hook.text).toBe(200);
  hookId = hook.body.id;

  // The customer writes, an agent answers, a private note, a deleted message, the customer again.
  conversationId = (await newConversation(t, account, { inboxId: inbox.id })).id;
  await newMessage(t, account, conversationId, {
    content: 'Hi, my order #123 has not arrived',
    message_type: 'incoming',
  });
  await newMessage(t, account, conversationId, { content: 'Sorry! Let me check that for you.' });
  await newMessage(t, account, conversationId, { content: 'Internal: carrier lost it', private: true });
  const oops = await newMessage(t, account, conversationId, { content: 'Wrong conversation, sorry' });
  const deleted = await client(t.app, account.admin.token).delete(
    `${account.path}/conversations/${conversationId}/messages/${oops.id}`,
  );
  expect(deleted.status, deleted.text).toBe(200);
  await newMessage(t, account, conversationId, { content: 'Thanks, any news?', message_type: 'incoming' });
}, 60_000);

afterAll(async () => {
  await t.close();
  await fake.stop();
});

describe('POST {A}/integrations/hooks/{id}/process (openai)', () => {
  it('suggests a reply from the conversation: Bearer key, the model, the messages as turns; the key in no answer', async () => {
    fake.script.push(reply('We are looking into order #123 right now.'));
    const res = await client(t.app, agent.token).post(
      processPath(),
      event('reply_suggestion', { conversation_display_id: conversationId }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'We are looking into order #123 right now.' });
    expect(res.text).not.toContain(KEY);

    const sent = fake.last;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.json.model).toBe('test-model');
    const [system, ...turns] = sent.json.messages;
    expect(system).toEqual({ role: 'system', content: expect.stringContaining("agent's next reply") });
    // No private note, no deleted message: what the customer saw, oldest first.
    expect(turns).toEqual([
      { role: 'user', content: 'Hi, my order #123 has not arrived' },
      { role: 'assistant', content: 'Sorry! Let me check that for you.' },
      { role: 'user', content: 'Thanks, any news?' },
    ]);
  });

  it("summarizes the conversation as one transcript; Chatwoot's process_event path and conversation_id work too", async () => {
    fake.script.push(reply('- Order #123 has not arrived\n- Agent is checking'));
    const res = await client(t.app, account.admin.token).post(
      `${hooks(account, hookId)}/process_event`,
      event('summarize', { conversation_id: String(conversationId) }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: '- Order #123 has not arrived\n- Agent is checking' });
    expect(fake.last.json.messages).toEqual([
      { role: 'system', content: expect.stringContaining('Summarize') },
      {
        role: 'user',
        content:
          'Customer: Hi, my order #123 has not arrived\nAgent: Sorry! Let me check that for you.\nCustomer: Thanks, any news?',
      },
    ]);
  });

  it('rewrites a text for every text event, sending the text alone', async () => {
    const asks: Record<string, RegExp> = {
      rephrase: /Rephrase/,
      fix_spelling_grammar: /spelling and grammar/,
      shorten: /shorter/,
      expand: /Expand/,
      make_friendly: /friendlier/,
      make_formal: /formal/,
      simplify: /simpler/,
    };
    expect(Object.keys(asks).sort()).toEqual([...TEXT_EVENTS].sort());
    for (const name of TEXT_EVENTS) {
      fake.script.push(reply(`  ${name} result \n`));
      const res = await client(t.app, agent.token).post(processPath(), event(name, { content: '  i has a problm  ' }));
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      expect(res.body).toEqual({ message: `${name} result` });
      const [system, user] = fake.last.json.messages;
      expect(system.role).toBe('system');
      expect(system.content, name).toMatch(asks[name]);
      expect(user).toEqual({ role: 'user', content: 'i has a problm' });
      expect(fake.last.json.messages).toHaveLength(2);
    }
  });

  it(`sends at most the latest ${CONTEXT_MESSAGES} messages of a long conversation`, async () => {
    const long = (await newConversation(t, account, { inboxId: inbox.id })).id;
    const total = CONTEXT_MESSAGES + 5;
    for (let i = 1; i <= total; i++)
      await newMessage(t, account, long, {
        content: `Message ${i}`,
        message_type: i % 2 === 1 ? 'incoming' : 'outgoing',
      });
    const res = await client(t.app, agent.token).post(
      processPath(),
      event('reply_suggestion', { conversation_display_id: long }),
    );
    expect(res.status, res.text).toBe(200);
    const turns = fake.last.json.messages.slice(1) as { content: string }[];
    expect(turns).toHaveLength(CONTEXT_MESSAGES);
    expect(turns[0].content).toBe(`Message ${total - CONTEXT_MESSAGES + 1}`);
    expect(turns.at(-1)!.content).toBe(`Message ${total}`);
  });

  it('refuses unknown events, missing data, unknown hooks and conversations the caller cannot see, calling nobody', async () => {
    const api = client(t.app, agent.token);
    const otherInbox = await newInbox(t, account);
    const hidden = (await newConversation(t, account, { inboxId: otherInbox.id })).id;
    await newMessage(t, account, hidden, { content: 'Not for this agent', message_type: 'incoming' });
    const empty = (await newConversation(t, account, { inboxId: inbox.id })).id;
    const theirs = await client(t.app, other.admin.token).post(hooks(other), {
      app_id: 'openai',
      settings: { api_key: KEY, base_url: fake.baseUrl },
    });
    expect(theirs.status, theirs.text).toBe(200);
    const calls = fake.requests.length;

    const refusals: [string, unknown, number, string?][] = [
      [processPath(), event('translate', { content: 'x' }), 422, 'event.name'],
      [processPath(), event('reply_suggestion', {}), 422, 'event.data.conversation_display_id'],
      [processPath(), event('summarize', { content: 'no conversation' }), 422, 'event.data.conversation_display_id'],
      [processPath(), event('rephrase', {}), 422, 'event.data.content'],
      [processPath(), event('rephrase', { content: '   ' }), 422, 'event.data.content'],
      [
        processPath(),
        event('reply_suggestion', { conversation_display_id: empty }),
        422,
        'event.data.conversation_display_id',
      ],
      [processPath(), { event: { name: 'rephrase', data: { content: 5 } } }, 422],
      [processPath(), { event: 'rephrase' }, 422],
      [processPath(), {}, 422],
      // Not the agent's inbox, not a conversation of the account, not the account's hook.
      [processPath(), event('summarize', { conversation_display_id: hidden }), 404],
      [processPath(), event('summarize', { conversation_display_id: 99999 }), 404],
      [processPath(theirs.body.id), event('rephrase', { content: 'x' }), 404],
      [processPath(theirs.body.id, other), event('rephrase', { content: 'x' }), 404],
      [processPath(987654), event('rephrase', { content: 'x' }), 404],
    ];
    for (const [url, body, status, field] of refusals) {
      const res = await api.post(url, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      if (field) expect(res.body.details?.map((d: { field: string }) => d.field)).toContain(field);
    }

    // A disabled hook, and a hook limited to another inbox.
    const admin = client(t.app, account.admin.token);
    await admin.patch(hooks(account, hookId), { status: 0 });
    const disabled = await api.post(processPath(), event('rephrase', { content: 'x' }));
    expect(disabled.status).toBe(422);
    expect(disabled.body.code).toBe('hook_disabled');
    await admin.patch(hooks(account, hookId), { status: 1 });
    const scoped = await admin.post(hooks(account), {
      app_id: 'openai',
      inbox_id: otherInbox.id,
      settings: { api_key: KEY, base_url: fake.baseUrl },
    });
    expect(scoped.status, scoped.text).toBe(200);
    const elsewhere = await admin.post(
      processPath(scoped.body.id),
      event('summarize', { conversation_display_id: conversationId }),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.details).toEqual([
      { field: 'event.data.conversation_display_id', message: expect.any(String) },
    ]);
    // An agent bot may not use it.
    const bot = await admin.post(`${account.path}/agent_bots`, {
      name: 'Bot',
      outgoing_url: 'https://bots.example.test/x',
    });
    expect(bot.body.access_token, bot.text).toEqual(expect.any(String));
    const asBot = await client(t.app, bot.body.access_token).post(processPath(), event('rephrase', { content: 'x' }));
    expect(asBot.status).toBe(403);
    expect(fake.requests.length).toBe(calls);
    await admin.delete(hooks(account, scoped.body.id));
  });

  it('maps what the endpoint answers: refused key, rate limit, failures, garbage; never repeating the key', async () => {
    const api = client(t.app, agent.token);
    const cases: [Parameters<typeof fake.script.push>[0], number, string, RegExp][] = [
      [
        { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } } },
        422,
        'api_key_refused',
        /refused the API key/,
      ],
      [{ status: 403, body: { error: 'forbidden' } }, 422, 'api_key_refused', /refused the API key/],
      [
        {
          status: 429,
          body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } },
          headers: { 'retry-after': '7' },
        },
        429,
        'upstream_rate_limited',
        /try again in 7 s/,
      ],
      [
        { status: 429, body: { error: { message: 'You exceeded your quota', code: 'insufficient_quota' } } },
        429,
        'upstream_quota_exceeded',
        /quota/,
      ],
      [
        { status: 404, body: { error: { message: `The model 'nope' does not exist (key ${KEY})` } } },
        422,
        'upstream_rejected',
        /HTTP 404.*settings\.model.*does not exist \(key \[api_key\]\)/,
      ],
      [{ status: 500, body: { error: { message: 'boom' } } }, 502, 'upstream_error', /failed \(HTTP 500\)/],
      [{ status: 503, body: 'Service Unavailable' }, 502, 'upstream_error', /HTTP 503/],
      [{ status: 302, body: '', headers: { location: 'http://10.0.0.1/' } }, 502, 'upstream_error', /redirect/],
      [{ status: 200, body: '<html>not json</html>' }, 502, 'upstream_invalid_response', /not JSON/],
      [{ status: 200, body: { choices: [] } }, 502, 'upstream_invalid_response', /no choices/],
      [
        { status: 200, body: { choices: [{ message: { content: null } }] } },
        502,
        'upstream_invalid_response',
        /without text/,
      ],
      [{ status: 200, body: { object: 'error' } }, 502, 'upstream_invalid_response', /no choices/],
    ];
    for (const [answer, status, code, message] of cases) {
      fake.script.push(answer);
      const res = await api.post(processPath(), event('rephrase', { content: 'Hello' }));
      expect(res.status, `${JSON.stringify(answer)}: ${res.text}`).toBe(status);
      expect(res.body).toEqual({ error: expect.stringMatching(message), code });
      expect(res.text).not.toContain(KEY);
      if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(fake.script).toEqual([]);

    // Nobody listening: unreachable.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const admin = client(t.app, account.admin.token);
    await admin.patch(hooks(account, hookId), { settings: { base_url: `http://127.0.0.1:${port}/v1` } });
    try {
      const res = await api.post(processPath(), event('rephrase', { content: 'Hello' }));
      expect(res.status, res.text).toBe(502);
      expect(res.body).toMatchObject({ code: 'upstream_unreachable', error: expect.stringContaining('ECONNREFUSED') });
    } finally {
      await admin.patch(hooks(account, hookId), { settings: { base_url: fake.baseUrl } });
    }
  });

  it('gives up after the configured timeout with 504', async () => {
    const quick = await buildChatTestApp(
      { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', INTEGRATIONS_TIMEOUT_SECONDS: '0.2' },
      { sameDatabaseAs: t },
    );
    try {
      fake.script.push({ hang: true });
      const started = Date.now();
      const res = await client(quick.app, agent.token).post(processPath(), event('rephrase', { content: 'Hello' }));
      expect(res.status, res.text).toBe(504);
      expect(res.body).toEqual({ error: expect.stringContaining('within 0.2 s'), code: 'upstream_timeout' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await quick.close();
    }
  });

  it('refuses an endpoint at a private address when the guard does not allow it, without calling it', async () => {
    const strict = await buildChatTestApp({}, { sameDatabaseAs: t });
    try {
      const calls = fake.requests.length;
      const res = await client(strict.app, agent.token).post(processPath(), event('rephrase', { content: 'Hello' }));
      expect(res.status, res.text).toBe(422);
      expect(res.body).toMatchObject({
        code: 'destination_refused',
        details: [{ field: 'settings.base_url', message: expect.stringContaining('127.0.0.1') }],
      });
      expect(fake.requests.length).toBe(calls);
    } finally {
      await strict.close();
    }
  });
});
