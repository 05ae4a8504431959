import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { CableClient, cableUrl, roomIdentifier } from '../../../../test/helpers/cable.js';
import { newAccount, newAgent, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { verifyStandardSignature } from '../../../core/webhooks/signer.js';
import { newCard, newPipeline } from '../../../../test/helpers/pipelines.js';

/**
 * Pipeline events leave through the outbox like every other event: to a real webhook receiver on
 * 127.0.0.1 (signed), and to a /cable subscriber, with the dispatcher and workers running.
 */
let t: ChatTestApp;
let account: TestAccount;
const sockets: CableClient[] = [];
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { background: { pollIntervalMs: 20 } });
  account = await newAccount(t);
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function agentSocket(user: TestUser, acc: TestAccount): Promise<CableClient> {
  const socket = await CableClient.connect(await cableUrl(t.app));
  sockets.push(socket);
  const profile = await client(t.app, user.token).get('/api/v1/profile');
  const identifier = roomIdentifier({ pubsub_token: profile.body.pubsub_token, account_id: acc.id, user_id: user.id });
  expect(await socket.subscribe(identifier)).toBe('confirm_subscription');
  return socket;
}

describe('pipeline events', () => {
  it('delivers pipeline_card_won to a subscribed webhook, signed, with the card as the API shows it', async () => {
    const receiver = await new TestReceiver().start();
    receivers.push(receiver);
    const api = client(t.app, account.admin.token);
    const registered = await api.post(`${account.path}/webhooks`, {
      url: receiver.url,
      subscriptions: ['pipeline_card_won', 'pipeline_card_moved'],
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const secret: string = registered.body.payload.webhook.secret;

    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline, { title: 'Big one', value: 9999.99 });
    const won = await api.post(`${account.path}/pipeline/cards/${card.id}/deal_status/mark_won`, { won_note: 'Yes!' });
    expect(won.status).toBe(200);

    await receiver.waitFor(1);
    const [delivery] = receiver.received;
    expect(delivery.json).toEqual({
      ...won.body.data,
      event: 'pipeline_card_won',
      account: { id: account.id, name: 'Acme' },
      previous_status: 'open',
      changed_attributes: expect.arrayContaining([{ status: { previous_value: 'open', current_value: 'won' } }]),
    });
    const headers = delivery.headers as Record<string, string>;
    expect(verifyStandardSignature(secret, headers, delivery.body)).toBe(true);
    const chatwoot = createHmac('sha256', secret)
      .update(`${headers['x-chatwoot-timestamp']}.${delivery.body}`)
      .digest('hex');
    expect(headers['x-chatwoot-signature']).toBe(`sha256=${chatwoot}`);
    // Only subscribed events: the card's creation was not sent.
    expect(receiver.received.map((r) => r.json.event)).toEqual(['pipeline_card_won']);
  });

  it("pushes a card move on /cable to the account's agents (and not to another account's)", async () => {
    const agent = await newAgent(t, account, 'Board Watcher');
    const socket = await agentSocket(agent, account);
    const other = await newAccount(t, 'Elsewhere');
    const outsider = await agentSocket(other.admin, other);
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline, { title: 'Drag me' });
    const moved = await client(t.app, account.admin.token).post(
      `${account.path}/pipeline_cards/${card.id}/move_to_stage`,
      { pipeline_stage: pipeline.stages[2].id, expected_version: 1 },
    );
    expect(moved.status).toBe(200);
    const push = await socket.waitForPush('pipeline_card.moved', (data) => data.id === card.id);
    expect(push.data).toMatchObject({
      event: 'pipeline_card_moved',
      id: card.id,
      title: 'Drag me',
      stage: { id: pipeline.stages[2].id, name: 'Proposal' },
      from_stage: { id: pipeline.stages[0].id, name: 'Lead' },
      to_stage: { id: pipeline.stages[2].id, name: 'Proposal' },
      stage_version: 2,
    });
    expect(socket.pushes().some((p) => p.event === 'pipeline_card.created' && p.data.id === card.id)).toBe(true);
    // The other account's socket got its own account's nothing: a later event of its own arrives alone.
    const theirs = await newPipeline(t, other);
    const theirCard = await newCard(t, other, theirs);
    await outsider.waitForPush('pipeline_card.created', (data) => data.id === theirCard.id);
    expect(
      outsider
        .pushes()
        .filter((p) => p.event.startsWith('pipeline_card.'))
        .map((p) => p.data.id),
    ).toEqual([theirCard.id]);
  });
});
