import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addInboxMembers, newAccount, newAgent, type TestAccount } from '../../../test/helpers/factories.js';
import { client } from '../../../test/helpers/http.js';
import { TestReceiver, type Received } from '../../../test/helpers/receiver.js';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { verifyStandardSignature } from '../../core/webhooks/signer.js';

/**
 * An API inbox's `channel.webhook_url` receives that inbox's events through the signed delivery
 * queue, driven the way a WhatsApp bridge (Evolution API) drives Ponte through @figuro/chatwoot-sdk:
 * it creates the API inbox with its webhook_url, finds or creates the contact by phone number,
 * starts the conversation with ids sent as strings, posts the customer's messages as incoming, and
 * forwards to WhatsApp the `message_created` of the agents' replies (it reads the conversation's
 * `meta.sender`, `contact_inbox.source_id` and `messages`).
 */
const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '0.2,0.4,0.6' };
let t: ChatTestApp;
let account: TestAccount;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  t = await buildChatTestApp(env, { background: { pollIntervalMs: 20 } });
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function receiver() {
  const r = await new TestReceiver().start();
  receivers.push(r);
  return r;
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 400));
const events = (r: TestReceiver) => r.received.map((x) => x.json.event as string);
const find = (r: TestReceiver, match: (json: any) => boolean): Received | undefined =>
  r.received.find((x) => match(x.json));

describe('API inbox webhooks', () => {
  it("delivers an agent's reply to the bridge with the conversation, contact and source_id it needs, signed with the inbox secret", async () => {
    const r = await receiver();
    const admin = client(t.app, account.admin.token);
    // The bridge creates its API inbox with the address of its webhook.
    const inbox = await admin.post(`${account.path}/inboxes`, {
      name: 'WhatsApp',
      channel: { type: 'api', webhook_url: r.url },
    });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
    expect(inbox.body).toMatchObject({ webhook_url: r.url, secret: expect.any(String) });
    const secret = inbox.body.secret as string;
    const inboxId = String(inbox.body.id);

    // Looks the contact up by phone number (digits, no +), creates it when missing.
    const jid = '5511988887777@s.whatsapp.net';
    const filter = { attribute_key: 'phone_number', filter_operator: 'equal_to', query_operator: null };
    const none = await admin.post(`${account.path}/contacts/filter`, {
      payload: [{ ...filter, values: ['5511988887777'] }],
    });
    expect(none.body.payload).toEqual([]);
    const created = await admin.post(`${account.path}/contacts`, {
      inbox_id: Number(inboxId),
      name: 'Maria',
      identifier: jid,
      avatar_url: null,
      phone_number: '+5511988887777',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const found = await admin.post(`${account.path}/contacts/filter`, {
      payload: [{ ...filter, values: ['5511988887777'] }],
    });
    expect(found.body.payload.map((c: { id: number }) => c.id)).toEqual([created.body.payload.contact.id]);
    const contactId = String(created.body.payload.contact.id);

    // No conversation yet: starts one with ids as strings, and posts the customer's message.
    expect((await admin.get(`${account.path}/contacts/${contactId}/conversations`)).body.payload).toEqual([]);
    const conversation = await admin.post(`${account.path}/conversations`, {
      contact_id: contactId,
      inbox_id: inboxId,
    });
    expect(conversation.status, JSON.stringify(conversation.body)).toBe(200);
    const path = `${account.path}/conversations/${conversation.body.id}/messages`;
    const incoming = await admin.post(path, {
      content: 'Oi, tudo bem?',
      message_type: 'incoming',
      source_id: 'WAID:ABC',
    });
    expect(incoming.status).toBe(200);

    // An agent of the inbox answers.
    const agent = await newAgent(t, account, 'Ana Agent');
    await addInboxMembers(t, account, Number(inboxId), [agent.id]);
    const reply = await client(t.app, agent.token).post(path, { content: 'Olá Maria!' });
    expect(reply.status).toBe(200);

    await r.waitFor(3);
    await until(
      async () => r.received.length,
      () => !!find(r, (j) => j.event === 'message_created' && j.message_type === 'outgoing'),
    );
    const outgoing = find(r, (j) => j.event === 'message_created' && j.message_type === 'outgoing')!;
    expect(outgoing.json).toMatchObject({
      event: 'message_created',
      id: String(reply.body.id),
      content: 'Olá Maria!',
      private: false,
      message_type: 'outgoing',
      account: { id: account.id },
      inbox: { id: Number(inboxId), name: 'WhatsApp' },
      sender: { id: agent.id, name: 'Ana Agent', type: 'user' },
      conversation: {
        id: conversation.body.id,
        inbox_id: Number(inboxId),
        contact_inbox: { source_id: expect.any(String) },
        meta: { sender: { id: Number(contactId), identifier: jid, phone_number: '+5511988887777' } },
        messages: [{ id: reply.body.id, content: 'Olá Maria!', sender: { available_name: 'Ana Agent' } }],
      },
    });
    const source = created.body.payload.contact_inbox.source_id;
    expect(outgoing.json.conversation.contact_inbox.source_id).toBe(source);
    // The customer's own message and the new conversation came too (the bridge ignores them).
    expect(find(r, (j) => j.event === 'message_created' && j.message_type === 'incoming')?.json).toMatchObject({
      source_id: 'WAID:ABC',
    });
    expect(events(r)).toContain('conversation_created');

    // Signed with the inbox's secret, both conventions.
    for (const x of r.received) {
      const h = x.headers as Record<string, string>;
      expect(verifyStandardSignature(secret, h, x.body)).toBe(true);
      const chatwoot = createHmac('sha256', secret).update(`${h['x-chatwoot-timestamp']}.${x.body}`).digest('hex');
      expect(h['x-chatwoot-signature']).toBe(`sha256=${chatwoot}`);
    }
    // And logged: the inbox's delivery log (administrators).
    const log = await until(
      async () =>
        (await admin.get(`${account.path}/inboxes/${inboxId}/webhook_deliveries`)).body.payload as {
          status: string;
          attempts: number;
        }[],
      (d) => d.length === r.received.length && d.every((x) => x.status === 'succeeded'),
    );
    expect(log.length).toBe(r.received.length);
    expect(log.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    expect((await client(t.app, agent.token).get(`${account.path}/inboxes/${inboxId}/webhook_deliveries`)).status).toBe(
      403,
    );
  });

  it('sends status changes, updates, private notes and message status; never activities, other inboxes or inboxes without a webhook_url', async () => {
    const r = await receiver();
    const admin = client(t.app, account.admin.token);
    const hooked = (
      await admin.post(`${account.path}/inboxes`, { name: 'Bridge', channel: { type: 'api', webhook_url: r.url } })
    ).body;
    const silent = (await admin.post(`${account.path}/inboxes`, { name: 'Silent', channel: { type: 'api' } })).body;
    const widget = (
      await admin.post(`${account.path}/inboxes`, {
        name: 'Site',
        channel: { type: 'web_widget', website_url: 'https://acme.test', webhook_url: r.url },
      })
    ).body;
    const contact = (await admin.post(`${account.path}/contacts`, { name: 'Zed', inbox_id: hooked.id })).body.payload;
    const start = (inboxId: number, sourceId?: string) =>
      admin.post(`${account.path}/conversations`, {
        inbox_id: inboxId,
        contact_id: contact.contact.id,
        ...(sourceId ? { source_id: sourceId } : {}),
      });
    const mine = (await start(hooked.id)).body;
    await start(silent.id);
    await start(widget.id, 'widget-source');
    await r.waitFor(1);
    await settle();
    expect(events(r)).toEqual(['conversation_created']);

    const conv = `${account.path}/conversations/${mine.id}`;
    await admin.post(`${conv}/toggle_status`, { status: 'pending' });
    await admin.post(`${conv}/toggle_priority`, { priority: 'high' });
    const note = (await admin.post(`${conv}/messages`, { content: 'internal', private: true })).body;
    await admin.post(`${conv}/messages`, { content: 'joined', message_type: 'activity' });
    const sent = (await admin.post(`${conv}/messages`, { content: 'to be read' })).body;
    const read = await admin.patch(`${conv}/messages/${sent.id}`, { status: 'read' });
    expect(read.status).toBe(200);
    await r.waitFor(6);
    await settle();
    expect(events(r).sort()).toEqual(
      [
        'conversation_created',
        'conversation_status_changed',
        'conversation_updated',
        'message_created',
        'message_created',
        'message_updated',
      ].sort(),
    );
    expect(find(r, (j) => j.event === 'message_created' && j.id === String(note.id))?.json.private).toBe(true);
    expect(find(r, (j) => j.event === 'message_updated')?.json).toMatchObject({
      id: String(sent.id),
      changed_attributes: [{ status: { previous_value: 'sent', current_value: 'read' } }],
    });
    expect(find(r, (j) => j.event === 'conversation_status_changed')?.json).toMatchObject({
      id: mine.id,
      status: 'pending',
      changed_attributes: [{ status: { previous_value: 'open', current_value: 'pending' } }],
    });
  });

  it('stops delivering to an address once the inbox no longer has it, and keeps secrets from agents', async () => {
    const r = await receiver();
    const admin = client(t.app, account.admin.token);
    const inbox = (
      await admin.post(`${account.path}/inboxes`, { name: 'Moving', channel: { type: 'api', webhook_url: r.url } })
    ).body;
    const contact = (await admin.post(`${account.path}/contacts`, { name: 'Yan', inbox_id: inbox.id })).body.payload;
    await admin.post(`${account.path}/conversations`, { inbox_id: inbox.id, contact_id: contact.contact.id });
    await r.waitFor(1);
    const other = await receiver();
    const moved = await admin.patch(`${account.path}/inboxes/${inbox.id}`, {
      channel: { webhook_url: other.url, secret: 'mine' },
    });
    expect(moved.status).toBe(200);
    // The secret is the inbox's own: a client cannot set it.
    expect(moved.body.secret).toBe(inbox.secret);
    await admin.post(`${account.path}/conversations`, { inbox_id: inbox.id, contact_id: contact.contact.id });
    await other.waitFor(1);
    await settle();
    expect(r.received.length).toBe(1);
    const agent = await newAgent(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const seen = (await client(t.app, agent.token).get(`${account.path}/inboxes/${inbox.id}`)).body;
    expect(seen.secret).toBeUndefined();
    expect(seen.channel.secret).toBe('********');
  });
});
