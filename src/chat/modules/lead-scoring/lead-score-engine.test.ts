import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  newAccount,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { cardOf, logsOf, newRule, scoringDispatcher, scoringJobs } from '../../../../test/helpers/lead-scoring.js';
import { newCard, newPipeline, type TestPipeline } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import type { DispatchedEvent, EventOf } from '../../../core/events/dispatcher.js';
import type { ChatEvents } from '../../events.js';

/**
 * Scoring scenarios on known sets: each account has only the rules its test creates, the listener
 * runs when the test drains the outbox, and every expected score is worked out by hand.
 */
let t: ChatTestApp;
let scoring: ReturnType<typeof scoringDispatcher>;

beforeAll(async () => {
  t = await buildChatTestApp();
  scoring = scoringDispatcher(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const drain = () => scoring.dispatcher.drain();

interface World {
  account: TestAccount;
  pipeline: TestPipeline;
  inboxId: number;
}

async function world(): Promise<World> {
  const account = await newAccount(t);
  const pipeline = await newPipeline(t, account);
  const inboxId = (await newInbox(t, account)).id;
  return { account, pipeline, inboxId };
}

/** A conversation with its contact, and a card linked to it (or only to the contact). */
async function dealWithConversation(w: World, link: 'conversation' | 'contact' = 'conversation') {
  const conversation = await newConversation(t, w.account, { inboxId: w.inboxId });
  const card = await newCard(
    t,
    w.account,
    w.pipeline,
    link === 'conversation' ? { conversation_display_id: conversation.id } : { contact_id: conversation.contact.id },
  );
  await drain();
  return { conversation, card };
}

const incoming = (w: World, conversationId: number) =>
  newMessage(t, w.account, conversationId, { message_type: 'incoming', content: 'Hello, I want to buy' });

const customEvent = async (w: World, cardId: number, subtype = 'demo') => {
  const res = await client(t.app, w.account.admin.token).post(`${w.account.path}/lead_score/events`, {
    pipeline_card_id: cardId,
    event_subtype: subtype,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('events reaching a card', () => {
  it('an incoming message in the linked conversation adds the rule points, with a log row', async () => {
    const w = await world();
    const rule = await newRule(t, w.account, { event_type: 'message_received', points: 7 });
    const { conversation, card } = await dealWithConversation(w);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(0);

    await incoming(w, conversation.id);
    await drain();

    const scored = await cardOf(t, w.account, card.id);
    expect(scored.lead_score).toBe(7);
    expect(scored.score.factors).toEqual([{ rule_id: rule.id, name: rule.name, points: 7 }]);
    const logs = await logsOf(t, w.account, card.id);
    expect(logs).toEqual([
      expect.objectContaining({
        pipeline_card_id: card.id,
        contact_id: conversation.contact.id,
        rule_id: rule.id,
        rule_name: rule.name,
        event_type: 'message_received',
        points: 7,
        old_score: 0,
        new_score: 7,
        old_category: 'frio',
        new_category: 'frio',
        reason: 'rule_applied',
      }),
    ]);
  });

  it("reaches a card through its contact's other conversation, and only open cards", async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'message_received', points: 4 });
    const { conversation, card } = await dealWithConversation(w, 'contact');
    const lost = await newCard(t, w.account, w.pipeline, { contact_id: conversation.contact.id });
    await client(t.app, w.account.admin.token).post(
      `${w.account.path}/pipeline/cards/${lost.id}/deal_status/mark_lost`,
    );
    await drain();

    await incoming(w, conversation.id);
    await drain();

    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(4);
    expect((await cardOf(t, w.account, lost.id)).lead_score).toBe(0);
  });

  it('an agent answer, a stage move and a resolution move the score as a salesperson expects', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'agent_replied', points: 1 });
    await newRule(t, w.account, {
      event_type: 'first_response',
      points: 10,
      conditions: { response_minutes: { operator: 'lt', value: 60 } },
    });
    await newRule(t, w.account, { event_type: 'stage_changed', points: 10 });
    await newRule(t, w.account, { event_type: 'conversation_resolved', points: -5 });
    const { conversation, card } = await dealWithConversation(w);
    const api = client(t.app, w.account.admin.token);

    await newMessage(t, w.account, conversation.id, { content: 'Happy to help' }); // first answer: 1 + 10
    await newMessage(t, w.account, conversation.id, { content: 'Anything else?' }); // 1 more
    await api.post(`${w.account.path}/pipeline_cards/${card.id}/move_to_stage`, {
      pipeline_stage: w.pipeline.stages[1].id,
    }); // 10
    await api.post(`${w.account.path}/conversations/${conversation.id}/toggle_status`, { status: 'resolved' }); // -5
    await drain();

    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(1 + 10 + 1 + 10 - 5);
    const types = (await logsOf(t, w.account, card.id)).map((l) => l.event_type);
    expect(types).toEqual([
      'agent_replied',
      'first_response',
      'agent_replied',
      'stage_changed',
      'conversation_resolved',
    ]);
  });

  it('an assigned conversation and an assigned card score their rules; unassigning does not', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'agent_assigned', points: 3 });
    await newRule(t, w.account, { event_type: 'card_assigned', points: 4 });
    const { conversation, card } = await dealWithConversation(w);
    const api = client(t.app, w.account.admin.token);
    const assign = (assignee_id: number | null) =>
      api.post(`${w.account.path}/conversations/${conversation.id}/assignments`, { assignee_id });
    expect((await assign(w.account.admin.id)).status).toBe(200);
    await assign(null);
    const owner = (owner_id: number | null) =>
      api.patch(`${w.account.path}/pipeline/cards/${card.id}/assign`, { owner_id });
    expect((await owner(w.account.admin.id)).status).toBe(200);
    await owner(null);
    await drain();
    expect((await logsOf(t, w.account, card.id)).map((l) => l.event_type)).toEqual(['agent_assigned', 'card_assigned']);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(7);
  });

  it('a card created with a large value scores its deal-value rule', async () => {
    const w = await world();
    await newRule(t, w.account, {
      event_type: 'card_created',
      points: 15,
      conditions: { value: { operator: 'gte', value: 10000 } },
    });
    const big = await newCard(t, w.account, w.pipeline, { value: 25000 });
    const small = await newCard(t, w.account, w.pipeline, { value: 500 });
    await drain();
    expect((await cardOf(t, w.account, big.id)).lead_score).toBe(15);
    expect((await cardOf(t, w.account, small.id)).lead_score).toBe(0);
  });
});

describe('contact, label and time events', () => {
  it("a contact's new e-mail and phone, and a label on the conversation, reach the contact's open cards", async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'contact_email_added', points: 5 });
    await newRule(t, w.account, { event_type: 'contact_phone_added', points: 5 });
    await newRule(t, w.account, { event_type: 'contact_profile_updated', points: 1 });
    await newRule(t, w.account, { event_type: 'label_added', points: 8, conditions: { label: 'hot' } });
    const { conversation, card } = await dealWithConversation(w, 'contact');
    const api = client(t.app, w.account.admin.token);
    const contactPath = `${w.account.path}/contacts/${conversation.contact.id}`;
    expect((await api.put(contactPath, { email: 'buyer@example.test', phone_number: '+5511999990000' })).status).toBe(
      200,
    );
    expect((await api.put(contactPath, { name: 'Renamed Buyer' })).status).toBe(200);
    await api.post(`${w.account.path}/conversations/${conversation.id}/labels`, { labels: ['cold'] });
    await api.post(`${w.account.path}/conversations/${conversation.id}/labels`, { labels: ['cold', 'hot'] });
    await drain();
    expect((await logsOf(t, w.account, card.id)).map((l) => [l.event_type, l.points])).toEqual([
      ['contact_email_added', 5],
      ['contact_phone_added', 5],
      ['contact_profile_updated', 1],
      ['label_added', 8],
    ]);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(19);
  });

  it('the daily job records stale_in_stage once per stay for open cards 14 days in one stage', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'custom_event', event_subtype: 'stale_in_stage', points: -10 });
    await newRule(t, w.account, { event_type: 'custom_event', event_subtype: 'warm-up', points: 30 });
    const idle = await newCard(t, w.account, w.pipeline);
    const moved = await newCard(t, w.account, w.pipeline);
    await drain();
    await customEvent(w, idle.id, 'warm-up');
    await customEvent(w, moved.id, 'warm-up');
    const { scoring: jobs } = scoringJobs(t, Date.now);
    const DAY = 86_400_000;
    expect(jobs.jobs().find((j) => j.name === 'lead_scoring.stale_in_stage')?.schedule).toEqual({ daily: '03:00' });

    await jobs.recordStaleCards(Date.now() + 13 * DAY);
    expect((await cardOf(t, w.account, idle.id)).lead_score).toBe(30);
    await jobs.recordStaleCards(Date.now() + 15 * DAY);
    await jobs.recordStaleCards(Date.now() + 16 * DAY); // the same stays: nothing new
    expect((await cardOf(t, w.account, idle.id)).lead_score).toBe(20);
    expect((await cardOf(t, w.account, moved.id)).lead_score).toBe(20);
    // A move starts a new stay, which becomes stale on its own 14 days later.
    await client(t.app, w.account.admin.token).post(`${w.account.path}/pipeline_cards/${moved.id}/move_to_stage`, {
      pipeline_stage: w.pipeline.stages[1].id,
    });
    await drain();
    await jobs.recordStaleCards(Date.now() + 15 * DAY);
    expect((await cardOf(t, w.account, idle.id)).lead_score).toBe(20);
    expect((await cardOf(t, w.account, moved.id)).lead_score).toBe(10);
    const stale = (await logsOf(t, w.account, idle.id)).filter((l) => l.event_subtype === 'stale_in_stage');
    expect(stale).toHaveLength(1);
  });
});

describe('rules', () => {
  it('a cooldown skips the rule until its time has passed (by event time)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-03-02T10:00:00Z');
    vi.setSystemTime(start);
    const w = await world();
    await newRule(t, w.account, { event_type: 'message_received', points: 2, cooldown_minutes: 60 });
    const { conversation, card } = await dealWithConversation(w);

    await incoming(w, conversation.id);
    vi.setSystemTime(start + 30 * 60_000);
    await incoming(w, conversation.id); // within the hour: skipped
    await drain();
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(2);

    vi.setSystemTime(start + 61 * 60_000);
    await incoming(w, conversation.id); // an hour after the first application
    await drain();
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(4);
  });

  it('rules apply in ascending priority, ties by id, each with its own log row', async () => {
    const w = await world();
    const late = await newRule(t, w.account, { event_type: 'custom_event', points: 3, priority: 5, name: 'Late' });
    const early = await newRule(t, w.account, { event_type: 'custom_event', points: 5, priority: 1, name: 'Early' });
    const tie = await newRule(t, w.account, { event_type: 'custom_event', points: 7, priority: 5, name: 'Tie' });
    await newRule(t, w.account, { event_type: 'custom_event', event_subtype: 'other', points: 50 });
    const card = await newCard(t, w.account, w.pipeline);
    await drain();

    await customEvent(w, card.id, 'demo');
    const logs = await logsOf(t, w.account, card.id);
    expect(logs.map((l) => [l.rule_id, l.old_score, l.new_score])).toEqual([
      [early.id, 0, 5],
      [late.id, 5, 8],
      [tie.id, 8, 15],
    ]);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(15);
  });

  it('clamps the score to 0..100 at both ends', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'custom_event', event_subtype: 'up', points: 60 });
    await newRule(t, w.account, { event_type: 'custom_event', event_subtype: 'down', points: -100 });
    const card = await newCard(t, w.account, w.pipeline);
    await drain();

    await customEvent(w, card.id, 'up');
    await customEvent(w, card.id, 'up'); // 120 -> 100
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(100);
    await customEvent(w, card.id, 'down');
    await customEvent(w, card.id, 'down'); // 120 - 200 = -80 -> 0
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(0);
    const logs = await logsOf(t, w.account, card.id);
    expect(logs.map((l) => [l.old_score, l.new_score])).toEqual([
      [0, 60],
      [60, 100],
      [100, 20],
      [20, 0],
    ]);
    expect(logs.map((l) => [l.old_category, l.new_category])[1]).toEqual(['quente', 'muito_quente']);
  });

  it('an edited rule applies to the past only after a recalculation', async () => {
    const w = await world();
    const rule = await newRule(t, w.account, { event_type: 'custom_event', points: 5 });
    const card = await newCard(t, w.account, w.pipeline);
    await drain();
    await customEvent(w, card.id);
    await customEvent(w, card.id);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(10);

    const api = client(t.app, w.account.admin.token);
    expect((await api.patch(`${w.account.path}/lead_score_rules/${rule.id}`, { points: 20 })).status).toBe(200);
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(10);

    const recalculated = await api.post(`${w.account.path}/pipeline_cards/${card.id}/recalculate_score`);
    expect(recalculated.status).toBe(200);
    expect(recalculated.body.data.lead_score).toBe(40);
    const last = (await logsOf(t, w.account, card.id)).at(-1);
    expect(last).toMatchObject({ reason: 'recalculation', old_score: 10, new_score: 40, points: 30, rule_id: null });
  });

  it('an event delivered twice scores once', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'message_received', points: 3 });
    const { conversation, card } = await dealWithConversation(w);
    await incoming(w, conversation.id);
    const row = await t.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('account_id', '=', w.account.id)
      .where('name', '=', 'message_created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await drain();
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(3);

    // The same outbox event handed to the listener again (as an at-least-once redelivery would).
    const event = {
      id: row.id,
      accountId: row.account_id,
      name: 'message_created',
      refs: JSON.parse(row.refs),
      snapshot: JSON.parse(row.payload),
      origin: row.origin,
      createdAt: row.created_at,
    } as DispatchedEvent<ChatEvents, 'message_created'>;
    const listener = scoring.listeners[0];
    await t.db.transaction().execute((trx) => listener.handle!(trx, event as EventOf<ChatEvents>));
    expect((await cardOf(t, w.account, card.id)).lead_score).toBe(3);
    expect(await logsOf(t, w.account, card.id)).toHaveLength(1);
  });
});

describe('checklist and override', () => {
  it('checked items add their points, set checked_at/checked_by, and qualify the card', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'custom_event', points: 10 });
    const card = await newCard(t, w.account, w.pipeline);
    await drain();
    await customEvent(w, card.id);

    const api = client(t.app, w.account.admin.token);
    const res = await api.patch(`${w.account.path}/pipeline_cards/${card.id}/update_qualification_checklist`, {
      qualification_checklist: {
        budget: { name: 'Budget confirmed', checked: true, points: 20, required: true },
        authority: { name: 'Talked to the decision maker', checked: false, points: 15, required: true },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.lead_score).toBe(30);
    expect(res.body.data.qualified).toBe(false);
    expect(res.body.data.qualification_checklist.budget).toMatchObject({
      checked: true,
      checked_at: expect.any(String),
      checked_by: { id: w.account.admin.id, type: 'user' },
    });
    expect(res.body.data.qualification_checklist.authority).toMatchObject({ checked_at: null, checked_by: null });

    const both = await api.patch(`${w.account.path}/pipeline_cards/${card.id}/update_qualification_checklist`, {
      qualification_checklist: {
        budget: { name: 'Budget confirmed', checked: true, points: 20, required: true },
        authority: { name: 'Talked to the decision maker', checked: true, points: 15, required: true },
      },
    });
    expect(both.body.data.lead_score).toBe(45);
    expect(both.body.data.qualified).toBe(true);
    await drain();
    const logs = (await logsOf(t, w.account, card.id)).filter((l) => l.reason === 'checklist');
    expect(logs.map((l) => [l.old_score, l.new_score, l.points])).toEqual([
      [10, 30, 20],
      [30, 45, 15],
    ]);
  });

  it('a manual score sticks while events still log, until recalculate_score clears it', async () => {
    const w = await world();
    await newRule(t, w.account, { event_type: 'custom_event', points: 10 });
    const card = await newCard(t, w.account, w.pipeline);
    await drain();
    await customEvent(w, card.id);

    const api = client(t.app, w.account.admin.token);
    const patched = await api.patch(`${w.account.path}/pipeline_cards/${card.id}`, { lead_score: 80 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ lead_score: 80, lead_score_overridden: true });
    await drain();

    await customEvent(w, card.id);
    await customEvent(w, card.id);
    expect(await cardOf(t, w.account, card.id)).toMatchObject({ lead_score: 80, lead_score_overridden: true });
    const logs = await logsOf(t, w.account, card.id);
    expect(logs.map((l) => [l.reason, l.old_score, l.new_score])).toEqual([
      ['rule_applied', 0, 10],
      ['manual_override', 10, 80],
      ['rule_applied_while_overridden', 80, 80],
      ['rule_applied_while_overridden', 80, 80],
    ]);

    const recalculated = await api.post(`${w.account.path}/pipeline_cards/${card.id}/recalculate_score`);
    expect(recalculated.body.data).toMatchObject({ lead_score: 30, lead_score_overridden: false });
  });
});
