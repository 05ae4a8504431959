import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { client } from '../../../test/helpers/http.js';
import { CableClient, cableUrl, roomIdentifier } from '../../../test/helpers/cable.js';
import { newAccount, newConversation, newMessage, type TestAccount } from '../../../test/helpers/factories.js';

/** Instances and sockets opened by a test, closed at the end whatever happened. */
const apps: ChatTestApp[] = [];
const sockets: CableClient[] = [];
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  // Second instances first: the first one owns the database.
  for (const app of apps.reverse()) await app.close();
});

async function adminSocket(app: ChatTestApp, account: TestAccount): Promise<CableClient> {
  const socket = await CableClient.connect(await cableUrl(app.app));
  sockets.push(socket);
  const profile = await client(app.app, account.admin.token).get('/api/v1/profile');
  const identifier = roomIdentifier({ pubsub_token: profile.body.pubsub_token, account_id: account.id });
  expect(await socket.subscribe(identifier)).toBe('confirm_subscription');
  return socket;
}

describe.skipIf(testDialect !== 'postgres')('several instances on one PostgreSQL database', () => {
  it('a socket on instance B receives a message created through instance A (LISTEN/NOTIFY)', async () => {
    const a = await buildChatTestApp({}, { background: { pollIntervalMs: 20 } });
    apps.push(a);
    const b = await buildChatTestApp({}, { background: { pollIntervalMs: 20 }, sameDatabaseAs: a });
    apps.push(b);
    // Only A dispatches, so what B's socket gets can only have come through the notification.
    await b.app.chatBackground!.dispatcher.stop();

    const account = await newAccount(a);
    const onB = await adminSocket(b, account);
    const onA = await adminSocket(a, account);
    const conversation = await newConversation(a, account);
    const message = await newMessage(a, account, conversation.id, { content: 'across instances' });

    const pushed = await onB.waitForPush('message.created', (d) => d.id === String(message.id));
    expect(pushed.data).toMatchObject({
      event: 'message_created',
      content: 'across instances',
      conversation: { id: conversation.id },
    });
    await onA.waitForPush('message.created', (d) => d.id === String(message.id));
    // Each event is pushed once per subscription, in order.
    expect(onB.pushes().map((p) => p.event)).toEqual(['contact.created', 'conversation.created', 'message.created']);
    expect(onA.pushes().map((p) => p.event)).toEqual(['contact.created', 'conversation.created', 'message.created']);
  });

  it('the LISTEN connection comes back after the database drops it', async () => {
    const app = await buildChatTestApp({}, { background: { pollIntervalMs: 20 } });
    apps.push(app);
    const listeners = async () => {
      const { rows } = await sql<{
        pid: number;
      }>`select pid from pg_stat_activity where query = ${`LISTEN "ponte_realtime_${app.database.schema}"`}`.execute(
        app.db,
      );
      return rows.map((r) => r.pid);
    };
    const [first] = await listeners();
    expect(first).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(${first})`.execute(app.db);
    // Wait (bounded) until a new session listens again.
    for (let i = 0; i < 200; i += 1) {
      const now = await listeners();
      if (now.length === 1 && now[0] !== first) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await listeners()).filter((pid) => pid !== first)).toHaveLength(1);

    const account = await newAccount(app);
    const socket = await adminSocket(app, account);
    const conversation = await newConversation(app, account);
    const message = await newMessage(app, account, conversation.id);
    await socket.waitForPush('message.created', (d) => d.id === String(message.id));
  });
});

describe('lifecycle', () => {
  it('on close, clients are told to reconnect and their sockets closed with 1001', async () => {
    const app = await buildChatTestApp({}, { background: { pollIntervalMs: 20 } });
    const account = await newAccount(app);
    const socket = await adminSocket(app, account);
    const idle = await CableClient.connect(await cableUrl(app.app));
    sockets.push(idle);

    await app.close();
    expect((await socket.whenClosed()).code).toBe(1001);
    expect((await idle.whenClosed()).code).toBe(1001);
    expect(socket.frames.at(-1)).toEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
  });
});
