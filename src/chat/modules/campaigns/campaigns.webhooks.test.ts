import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CableClient, cableUrl, roomIdentifier } from '../../../../test/helpers/cable.js';
import { newAccount, newContact } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/**
 * A campaign in a running service (the background as in production, fast polling): its messages
 * reach the account's webhooks, the API inbox's webhook_url and the agents' realtime sockets like
 * any other message.
 */
let t: ChatTestApp;
const accountHook = new TestReceiver();
const inboxHook = new TestReceiver();

beforeAll(async () => {
  await Promise.all([accountHook.start(), inboxHook.start()]);
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { background: { pollIntervalMs: 20 } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([accountHook.stop(), inboxHook.stop()]);
});

const messagesIn = (r: TestReceiver) =>
  r.received
    .filter((d) => d.json?.event === 'message_created')
    .map((d) => d.json.content as string)
    .sort();

async function until(probe: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('one-off campaigns in a running service', () => {
  it("reach the account's webhooks, the API inbox's webhook_url and realtime like any other message", async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const socket = await CableClient.connect(await cableUrl(t.app));
    const profile = await api.get('/api/v1/profile');
    const room = roomIdentifier({
      pubsub_token: profile.body.pubsub_token,
      account_id: account.id,
      user_id: account.admin.id,
    });
    expect(await socket.subscribe(room)).toBe('confirm_subscription');
    const hook = await api.post(`${account.path}/webhooks`, {
      url: accountHook.url,
      subscriptions: ['message_created'],
    });
    expect(hook.status, hook.text).toBe(200);
    const inbox = await api.post(`${account.path}/inboxes`, {
      name: 'Bridge',
      channel: { type: 'api', webhook_url: inboxHook.url },
    });
    expect(inbox.status, inbox.text).toBe(200);
    for (const name of ['Mia', 'Noa']) {
      const contact = (await newContact(t, account, { name })).contact;
      await api.post(`${account.path}/contacts/${contact.id}/labels`, { labels: ['live'] });
    }
    const res = await api.post(`${account.path}/campaigns`, {
      title: 'Now',
      campaign_type: 'one_off',
      inbox_id: inbox.body.id,
      message: 'Hello {{contact.name}}',
      scheduled_at: new Date(Date.now() - 1000).toISOString(),
      audience: [{ type: 'Label', id: 'live' }],
    });
    expect(res.status, res.text).toBe(200);
    const expected = ['Hello Mia', 'Hello Noa'];
    await until(() => messagesIn(accountHook).length >= 2, "the account webhook's deliveries");
    await until(() => messagesIn(inboxHook).length >= 2, "the API inbox's deliveries");
    expect(messagesIn(accountHook)).toEqual(expected);
    expect(messagesIn(inboxHook)).toEqual(expected);
    for (const content of expected) await socket.waitForPush('message.created', (d) => d.content === content);
    await socket.close();
  });
});
