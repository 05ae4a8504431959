import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { client } from '../../../test/helpers/http.js';
import { countingQueries } from '../../../test/helpers/query-counter.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newInbox,
  type TestAccount,
  type TestUser,
} from '../../../test/helpers/factories.js';
import type { RealtimeEvent } from '../../core/realtime/broadcaster.js';
import { roomChannel } from './realtime.channel.js';
import type { AgentSubscription, ChatSubscription } from './realtime.routing.js';

let t: ChatTestApp;
let account: TestAccount;
let agent: TestUser;
let inboxId: number;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  agent = await newAgent(t, account);
  inboxId = (await newInbox(t, account)).id;
});
afterAll(async () => {
  await t.close();
});

/** The channel on a handle that counts the queries it runs, with a clock the test moves. */
function countedChannel() {
  const counted = countingQueries(t.db);
  const counter = Object.assign(counted.counter, { clock: 1_000_000 });
  const channel = roomChannel(counted.db, { membershipTtlMs: 5000, now: () => counter.clock });
  return { channel, counter };
}

const tokenOf = async (userId: number) =>
  (await t.db.selectFrom('users').select('pubsub_token').where('id', '=', userId).executeTakeFirstOrThrow())
    .pubsub_token;

const messageEvent = (inbox: number): RealtimeEvent => ({
  id: 1,
  accountId: account.id,
  name: 'message_created',
  payload: {
    event: 'message_created',
    id: '1',
    private: false,
    inbox: { id: inbox, name: 'x' },
    conversation: { id: 1, status: 'open', contact_inbox: null },
  },
  origin: null,
  createdAt: Date.now(),
});

describe('RoomChannel subscriptions', () => {
  it('resolves a user once, then re-reads memberships for all the account’s sockets in one query when stale', async () => {
    const { channel, counter } = countedChannel();
    const subscriptions: ChatSubscription[] = [];
    for (let i = 0; i < 20; i += 1) {
      const s = await channel.subscribe({
        channel: 'RoomChannel',
        pubsub_token: await tokenOf(agent.id),
        account_id: String(account.id),
      });
      expect(s).toMatchObject({ kind: 'user', userId: agent.id, accountId: account.id, role: 'agent' });
      subscriptions.push(s!);
    }
    const route = channel.route(messageEvent(inboxId))!;
    expect(subscriptions.map((s) => route(s).length)).toEqual(Array(20).fill(0));

    await addInboxMembers(t, account, inboxId, [agent.id]);
    counter.queries = 0;
    await channel.refresh!(subscriptions); // still fresh: nothing read
    expect(counter.queries).toBe(0);
    counter.clock += 5000;
    await channel.refresh!(subscriptions);
    expect(counter.queries).toBe(1);
    expect(subscriptions.map((s) => route(s).map((m) => m.event))).toEqual(Array(20).fill(['message.created']));

    // Removed from the account: the next refresh leaves them with nothing.
    const removed = await client(t.app, t.platformToken).delete(
      `/platform/api/v1/accounts/${account.id}/account_users`,
      { user_id: agent.id },
    );
    expect(removed.status).toBe(200);
    counter.clock += 5000;
    await channel.refresh!(subscriptions);
    expect((subscriptions[0] as AgentSubscription).role).toBeNull();
    expect(route(subscriptions[0]!)).toEqual([]);
    const contactEvent = {
      ...messageEvent(inboxId),
      name: 'contact_created',
      payload: { event: 'contact_created', id: 5 },
    };
    expect(channel.route(contactEvent)!(subscriptions[0]!)).toEqual([]);
  });

  it('rejects tokens of nobody, a user without account_id or outside the account, and malformed ids', async () => {
    const { channel } = countedChannel();
    const token = await tokenOf(account.admin.id);
    const other = await newAccount(t, 'Elsewhere');
    for (const params of [
      { pubsub_token: 'nobody' },
      { pubsub_token: token },
      { pubsub_token: token, account_id: other.id },
      { pubsub_token: token, account_id: 'abc' },
      { pubsub_token: token, account_id: -1 },
      { pubsub_token: token, account_id: account.id, user_id: 1.5 },
      { pubsub_token: 'x'.repeat(300), account_id: account.id },
      { account_id: account.id },
    ]) {
      expect(await channel.subscribe({ channel: 'RoomChannel', ...params }), JSON.stringify(params)).toBeNull();
    }
    expect(
      await channel.subscribe({ channel: 'RoomChannel', pubsub_token: token, account_id: account.id }),
    ).toMatchObject({ role: 'administrator' });
  });
});
