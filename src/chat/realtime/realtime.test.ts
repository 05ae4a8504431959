import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { client } from '../../../test/helpers/http.js';
import { CableClient, cableUrl, roomIdentifier } from '../../../test/helpers/cable.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  newPublicContact,
  newPublicConversation,
  publicInboxPath,
  type TestAccount,
  type TestUser,
} from '../../../test/helpers/factories.js';

let t: ChatTestApp;
let url: string;
const sockets: CableClient[] = [];

beforeAll(async () => {
  t = await buildChatTestApp({}, { background: { pollIntervalMs: 20 } });
  url = await cableUrl(t.app);
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t.close();
});

async function connect(): Promise<CableClient> {
  const socket = await CableClient.connect(url);
  sockets.push(socket);
  return socket;
}

async function pubsubTokenOf(user: TestUser): Promise<string> {
  const res = await client(t.app, user.token).get('/api/v1/profile');
  expect(res.status).toBe(200);
  return res.body.pubsub_token;
}

/** A socket subscribed as `user` in `account` (confirmed). */
async function agentSocket(user: TestUser, account: TestAccount): Promise<CableClient> {
  const socket = await connect();
  const identifier = roomIdentifier({
    pubsub_token: await pubsubTokenOf(user),
    account_id: account.id,
    user_id: user.id,
  });
  expect(await socket.subscribe(identifier)).toBe('confirm_subscription');
  return socket;
}

/** Ids of the message.created pushes received so far (strings for users, as webhooks send them; numbers for contacts). */
const createdMessageIds = (socket: CableClient) =>
  socket
    .pushes()
    .filter((p) => p.event === 'message.created')
    .map((p) => p.data.id);

describe('GET /cable: ActionCable framing', () => {
  it('welcomes, negotiates actioncable-v1-json, pings, confirms and rejects subscriptions', async () => {
    const socket = await connect();
    expect(socket.socket.protocol).toBe('actioncable-v1-json');
    expect(socket.frames[0]).toEqual({ type: 'welcome' });
    const ping = await socket.waitFor((f) => f.type === 'ping');
    expect(Number.isInteger(ping.message)).toBe(true);
    expect(Math.abs(ping.message - Date.now() / 1000)).toBeLessThan(60);

    const account = await newAccount(t);
    const good = roomIdentifier({
      pubsub_token: await pubsubTokenOf(account.admin),
      account_id: account.id,
      user_id: account.admin.id,
    });
    expect(await socket.subscribe(good)).toBe('confirm_subscription');
    expect(socket.frames).toContainEqual({ identifier: good, type: 'confirm_subscription' });

    for (const bad of [
      roomIdentifier({ pubsub_token: 'not-a-token', account_id: account.id }),
      roomIdentifier({ pubsub_token: await pubsubTokenOf(account.admin) }), // a user needs account_id
      roomIdentifier({
        pubsub_token: await pubsubTokenOf(account.admin),
        account_id: account.id,
        user_id: account.admin.id + 1000,
      }),
      roomIdentifier({ pubsub_token: 42, account_id: account.id }),
      JSON.stringify({
        channel: 'OtherChannel',
        pubsub_token: await pubsubTokenOf(account.admin),
        account_id: account.id,
      }),
      'not json',
    ]) {
      expect(await socket.subscribe(bad), bad).toBe('reject_subscription');
      expect(socket.frames).toContainEqual({ identifier: bad, type: 'reject_subscription' });
    }
  });

  it('ignores unknown commands and malformed frames, and closes on oversized ones (1009)', async () => {
    const socket = await connect();
    socket.send('not json');
    socket.send({ command: 'dance', identifier: '{}' });
    socket.send({ command: 'message', identifier: roomIdentifier({}), data: '{"action":"update_presence"}' });
    // Still served: a later subscribe is answered.
    expect(await socket.subscribe(roomIdentifier({ pubsub_token: 'unknown' }))).toBe('reject_subscription');

    socket.send({ command: 'subscribe', identifier: 'x'.repeat(70 * 1024) });
    expect((await socket.whenClosed()).code).toBe(1009);
  });

  it('ignores a repeated subscribe and rejects subscriptions beyond 10 per socket', async () => {
    const account = await newAccount(t);
    const token = await pubsubTokenOf(account.admin);
    const socket = await connect();
    const identifiers = Array.from({ length: 11 }, (_, n) =>
      roomIdentifier({ pubsub_token: token, account_id: account.id, n }),
    );
    expect(await socket.subscribe(identifiers[0]!)).toBe('confirm_subscription');
    socket.send({ command: 'subscribe', identifier: identifiers[0] });
    for (const identifier of identifiers.slice(1, 10))
      expect(await socket.subscribe(identifier)).toBe('confirm_subscription');
    expect(await socket.subscribe(identifiers[10]!)).toBe('reject_subscription');
    expect(socket.frames.filter((f) => f.identifier === identifiers[0])).toHaveLength(1);
  });

  it('closes WebSocket connections to other paths without a welcome', async () => {
    const ws = new WebSocket(url.replace('/cable', '/api'));
    const received: string[] = [];
    ws.on('message', (data) => received.push(data.toString()));
    ws.on('error', () => undefined);
    await new Promise<void>((resolve) => ws.on('close', () => resolve()));
    expect(received).toEqual([]);
  });
});

describe('who receives what', () => {
  let account: TestAccount;
  let agent: TestUser;
  let memberInbox: number;
  let otherInbox: number;

  beforeAll(async () => {
    account = await newAccount(t);
    agent = await newAgent(t, account);
    memberInbox = (await newInbox(t, account, { type: 'api' }, 'Member inbox')).id;
    otherInbox = (await newInbox(t, account, { type: 'api' }, 'Other inbox')).id;
    await addInboxMembers(t, account, memberInbox, [agent.id]);
  });

  it('an agent receives the conversations and messages of their inboxes only, private notes included', async () => {
    const socket = await agentSocket(agent, account);
    const hidden = await newConversation(t, account, { inboxId: otherInbox });
    const hiddenMessage = await newMessage(t, account, hidden.id);
    const visible = await newConversation(t, account, { inboxId: memberInbox });
    const note = await newMessage(t, account, visible.id, { private: true });
    const reply = await newMessage(t, account, visible.id);

    const pushed = await socket.waitForPush('message.created', (d) => d.id === String(reply.id));
    expect(pushed.data).toMatchObject({
      event: 'message_created',
      id: String(reply.id),
      content: reply.content,
      account: { id: account.id },
      conversation: { id: visible.id, status: expect.any(String) },
      inbox: { id: memberInbox },
      private: false,
    });
    // Events are pushed in order: everything about `hidden` came before `reply` and was not sent.
    expect(createdMessageIds(socket)).toEqual([String(note.id), String(reply.id)]);
    expect(createdMessageIds(socket)).not.toContain(String(hiddenMessage.id));
    const conversationIds = socket
      .pushes()
      .filter((p) => p.event === 'conversation.created')
      .map((p) => p.data.id);
    expect(conversationIds).toEqual([visible.id]);
    expect(socket.pushes().find((p) => p.data.id === String(note.id))?.data.private).toBe(true);
  });

  it('an administrator receives every inbox of the account', async () => {
    const socket = await agentSocket(account.admin, account);
    const a = await newConversation(t, account, { inboxId: otherInbox });
    const first = await newMessage(t, account, a.id);
    const b = await newConversation(t, account, { inboxId: memberInbox });
    const second = await newMessage(t, account, b.id);
    await socket.waitForPush('message.created', (d) => d.id === String(second.id));
    expect(createdMessageIds(socket)).toEqual([String(first.id), String(second.id)]);
  });

  it('a user of another account receives nothing of this one and may not subscribe to it', async () => {
    const other = await newAccount(t, 'Other Co');
    const socket = await agentSocket(other.admin, other);
    const outsider = await connect();
    const identifier = roomIdentifier({ pubsub_token: await pubsubTokenOf(other.admin), account_id: account.id });
    expect(await outsider.subscribe(identifier)).toBe('reject_subscription');

    const foreign = await newConversation(t, account, { inboxId: memberInbox });
    await newMessage(t, account, foreign.id);
    // A sentinel in the other account: once it arrives, the earlier events have been fanned out.
    const own = await newConversation(t, other);
    const sentinel = await newMessage(t, other, own.id);
    await socket.waitForPush('message.created', (d) => d.id === String(sentinel.id));
    expect(socket.pushes().every((p) => p.data.account?.id === other.id || p.data.account_id === other.id)).toBe(true);
    expect(createdMessageIds(socket)).toEqual([String(sentinel.id)]);
  });

  it('contact.created and contact.updated reach the users of the account', async () => {
    const socket = await agentSocket(agent, account);
    const created = await client(t.app, account.admin.token).post(`${account.path}/contacts`, { name: 'Nova' });
    expect(created.status).toBe(200);
    const id = created.body.payload.contact.id;
    expect((await socket.waitForPush('contact.created', (d) => d.id === id)).data).toMatchObject({
      event: 'contact_created',
      name: 'Nova',
    });
    expect(
      (await client(t.app, account.admin.token).put(`${account.path}/contacts/${id}`, { name: 'Nova II' })).status,
    ).toBe(200);
    expect((await socket.waitForPush('contact.updated', (d) => d.id === id)).data.name).toBe('Nova II');
  });

  it('assignee.changed comes with conversation.updated on assignment', async () => {
    const socket = await agentSocket(agent, account);
    const conversation = await newConversation(t, account, { inboxId: memberInbox });
    const res = await client(t.app, account.admin.token).post(
      `${account.path}/conversations/${conversation.id}/assignments`,
      { assignee_id: agent.id },
    );
    expect(res.status).toBe(200);
    const changed = await socket.waitForPush('assignee.changed', (d) => d.id === conversation.id);
    expect(changed.data.changed_attributes).toContainEqual({
      assignee_id: { previous_value: null, current_value: agent.id },
    });
    expect(changed.data.assignee).toMatchObject({ id: agent.id });
    const updated = socket.pushes().filter((p) => p.event === 'conversation.updated' && p.data.id === conversation.id);
    expect(updated).toHaveLength(1);
  });

  it('a contact receives the public messages and status changes of its own conversation only', async () => {
    const inbox = await newInbox(t, account, { type: 'api' }, 'Widget');
    const identifier = inbox.inbox_identifier!;
    const me = await newPublicContact(t, identifier);
    const stranger = await newPublicContact(t, identifier);
    const mine = await newPublicConversation(t, identifier, me.source_id);
    const theirs = await newPublicConversation(t, identifier, stranger.source_id);
    // Assigned: the webhook payloads now carry the assignee (with an e-mail) that a contact must not see.
    const assigned = await client(t.app, account.admin.token).post(
      `${account.path}/conversations/${mine.id}/assignments`,
      { assignee_id: account.admin.id },
    );
    expect(assigned.status).toBe(200);

    const socket = await connect();
    expect(await socket.subscribe(roomIdentifier({ pubsub_token: me.pubsub_token }))).toBe('confirm_subscription');
    const wrongAccount = roomIdentifier({ pubsub_token: me.pubsub_token, account_id: account.id + 1000 });
    expect(await socket.subscribe(wrongAccount)).toBe('reject_subscription');

    const path = `${publicInboxPath(identifier)}/contacts/${me.source_id}/conversations/${mine.id}/messages`;
    const incoming = await client(t.app).post(path, { content: 'Hello?' });
    expect(incoming.status).toBe(200);
    const note = await newMessage(t, account, mine.id, { private: true, content: 'internal' });
    const activity = await newMessage(t, account, mine.id, { message_type: 'activity', content: 'internal activity' });
    const other = await newMessage(t, account, theirs.id, { content: 'for the stranger' });
    const answer = await newMessage(t, account, mine.id, { content: 'Hi there' });
    const resolved = await client(t.app, account.admin.token).post(
      `${account.path}/conversations/${mine.id}/toggle_status`,
      { status: 'resolved' },
    );
    expect(resolved.status).toBe(200);

    const status = await socket.waitForPush('conversation.status_changed', (d) => d.id === mine.id);
    expect(status.data).toEqual({
      id: mine.id,
      uuid: expect.any(String),
      inbox_id: inbox.id,
      status: 'resolved',
      contact_last_seen_at: null,
      agent_last_seen_at: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
      created_at: expect.any(String),
      changed_attributes: [{ status: { previous_value: 'open', current_value: 'resolved' } }],
    });
    // Pushed in order: the note and the stranger's message came before `answer` and were not sent.
    expect(createdMessageIds(socket)).toEqual([incoming.body.id, answer.id]);
    expect(createdMessageIds(socket)).not.toContain(note.id);
    expect(createdMessageIds(socket)).not.toContain(activity.id);
    expect(createdMessageIds(socket)).not.toContain(other.id);
    expect(socket.pushes().map((p) => p.event)).toEqual([
      'message.created',
      'message.created',
      'conversation.status_changed',
    ]);
    // The public interface's message shape: no internal fields.
    const reply = socket.pushes()[1]!.data;
    expect(reply).toEqual({
      id: answer.id,
      content: 'Hi there',
      message_type: 1,
      content_type: 'text',
      content_attributes: {},
      created_at: expect.any(Number),
      conversation_id: mine.id,
      echo_id: null,
      sender: {
        id: account.admin.id,
        name: expect.any(String),
        type: 'user',
        available_name: expect.any(String),
        thumbnail: '',
      },
      attachments: [],
    });
    expect(socket.pushes()[0]!.data).toMatchObject({
      id: incoming.body.id,
      content: 'Hello?',
      message_type: 0,
      sender: { type: 'contact' },
    });
    const everything = JSON.stringify(socket.frames);
    expect(everything).not.toContain(account.admin.email);
    expect(everything).not.toContain('internal');
    expect(everything).not.toContain('assignee');
  });

  it('unsubscribe stops the pushes of that subscription', async () => {
    const socket = await connect();
    const token = await pubsubTokenOf(account.admin);
    const first = roomIdentifier({ pubsub_token: token, account_id: account.id });
    const second = roomIdentifier({ pubsub_token: token, account_id: account.id, user_id: account.admin.id });
    expect(await socket.subscribe(first)).toBe('confirm_subscription');
    expect(await socket.subscribe(second)).toBe('confirm_subscription');
    socket.send({ command: 'unsubscribe', identifier: first });
    // Commands are handled in order: once this is answered, the unsubscribe has been.
    expect(await socket.subscribe(roomIdentifier({ pubsub_token: 'unknown' }))).toBe('reject_subscription');
    const conversation = await newConversation(t, account, { inboxId: memberInbox });
    const message = await newMessage(t, account, conversation.id);
    await socket.waitForPush('message.created', (d) => d.id === String(message.id));
    const forMessage = socket.pushes().filter((p) => p.event === 'message.created' && p.data.id === String(message.id));
    expect(forMessage.map((p) => p.identifier)).toEqual([second]);
  });
});
