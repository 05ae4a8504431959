import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { countRows, outboxEvents } from '../../../../test/helpers/db.js';
import { client } from '../../../../test/helpers/http.js';
import { dispatcherOf, jobRunnerOf, servicesOf } from '../../../../test/helpers/reports.js';
import { enterprise, getWith } from '../../../../test/helpers/sla.js';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { chatCoreModule } from '../../core.module.js';
import { slaModule } from './sla.module.js';

/**
 * Deadlines and breaches, on the scheduler's injected clock (runDue) and the conversation's own
 * events (the dispatcher); nothing waits on real time. Times that must be exact (business hours)
 * are set by faking Date only while the conversation is created.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;

let t: ChatTestApp;
let account: TestAccount;
let agent: { id: number; token: string };
let inbox: { id: number };
let now = Date.now();
const clock = () => now;
/** Moves the scheduler's clock forward (never back), past the recurring job's next run (30 s). */
const advance = (to: number) => {
  now = Math.max(now + 31_000, to);
};
const api = () => client(t.app, account.admin.token);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  await enterprise(t, account);
  agent = await newAgent(t, account);
  inbox = await newInbox(t, account);
  await addInboxMembers(t, account, inbox.id, [agent.id]);
});
afterAll(async () => {
  await t.close();
});

async function policy(body: Record<string, unknown>) {
  const res = await api().post(`${account.path}/sla_policies`, { name: `P ${Math.random()}`, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number };
}

async function apply(conversationId: number, policyId: number) {
  const res = await api().patch(`${account.path}/conversations/${conversationId}`, { sla_policy_id: policyId });
  expect(res.status, res.text).toBe(200);
}

/** The applied SLA of a conversation, as the list shows it. */
async function applied(conversationId: number) {
  const res = await getWith(t, account.admin.token, `${account.path}/applied_slas`);
  expect(res.status, res.text).toBe(200);
  return res.body.payload.find((a: { conversation: { id: number } }) => a.conversation.id === conversationId);
}

const missedEvents = async () => (await outboxEvents(t.db, account.id, 'sla_missed')).map((e) => e.payload);

describe('SLA deadlines', () => {
  it('records a first-response breach when nobody replies, once, from the scheduler', async () => {
    const p = await policy({ first_response_time_threshold: 60 });
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    await apply(conversation.id, p.id);
    const runner = jobRunnerOf(t, [slaModule], clock);
    advance(Date.now() + 30_000);
    await runner.ensureRecurring();
    await runner.runDue();
    expect((await applied(conversation.id)).sla_status).toBe('active');
    advance(now + 2 * MIN);
    await runner.runDue();
    const row = await applied(conversation.id);
    expect(row.sla_status).toBe('missed');
    expect(row.sla_events).toEqual([
      expect.objectContaining({ event_type: 'first_response', due_at: row.first_response_due_at }),
    ]);
    // Later passes find nothing new.
    advance(now + 10 * MIN);
    await runner.runDue();
    expect((await applied(conversation.id)).sla_events).toHaveLength(1);
    const events = (await missedEvents()).filter((e) => e.conversation.id === conversation.id);
    expect(events).toEqual([
      expect.objectContaining({ event: 'sla_missed', event_type: 'first_response', inbox_id: inbox.id }),
    ]);
  });

  it('is hit after a reply in time and a resolution in time', async () => {
    const p = await policy({ first_response_time_threshold: HOUR / 1000, resolution_time_threshold: 2 * 3600 });
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    await apply(conversation.id, p.id);
    const dispatcher = dispatcherOf(t, [slaModule]);
    await newMessage(t, account, conversation.id, { message_type: 'incoming' });
    await newMessage(t, account, conversation.id, {}, agent.token);
    await api().post(`${account.path}/conversations/${conversation.id}/toggle_status`, { status: 'resolved' });
    await dispatcher.drain();
    const row = await applied(conversation.id);
    expect(row.sla_status).toBe('hit');
    expect(row.first_response_at).toEqual(expect.any(Number));
    expect(row.resolved_at).toEqual(expect.any(Number));
    // Deadlines passing after the resolution are not breaches.
    advance(Date.now() + 10 * HOUR);
    await jobRunnerOf(t, [slaModule], clock).runDue();
    await slaModule.jobs!({ ...servicesOf(t), logger: undefined as never })[0]!.handle(
      { id: 0, name: 'sla.check_deadlines', payload: {}, attempts: 1, runAt: now },
      { now, logger: undefined as never, extendLease: async () => {} },
    );
    expect((await applied(conversation.id)).sla_events).toEqual([]);
    expect((await applied(conversation.id)).sla_status).toBe('hit');
  });

  it('records a next-response breach after an unanswered customer message', async () => {
    const p = await policy({ first_response_time_threshold: 3600, next_response_time_threshold: 60 });
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    await apply(conversation.id, p.id);
    const dispatcher = dispatcherOf(t, [slaModule]);
    await newMessage(t, account, conversation.id, {}, agent.token); // the first response
    await newMessage(t, account, conversation.id, { message_type: 'incoming' }); // the customer writes again
    await dispatcher.drain();
    const waiting = await applied(conversation.id);
    expect(waiting.sla_status).toBe('active');
    expect(waiting.next_response_due_at).toEqual(expect.any(Number));
    const runner = jobRunnerOf(t, [slaModule], clock);
    advance(waiting.next_response_due_at * 1000 + 2 * MIN);
    await runner.ensureRecurring();
    await runner.runDue();
    const row = await applied(conversation.id);
    expect(row.sla_status).toBe('missed');
    expect(row.sla_events.map((e: { event_type: string }) => e.event_type)).toEqual(['next_response']);
    // The late reply ends the wait without a second breach.
    await newMessage(t, account, conversation.id, {}, agent.token);
    await dispatcher.drain();
    const answered = await applied(conversation.id);
    expect(answered.next_response_due_at).toBeNull();
    expect(answered.sla_events).toHaveLength(1);
  });

  it('stretches a deadline over a weekend in the inbox time zone (business hours)', async () => {
    const office = await newInbox(t, account, { type: 'api' }, 'Office');
    const hours = await api().patch(`${account.path}/inboxes/${office.id}`, {
      working_hours_enabled: true,
      timezone: 'America/Sao_Paulo', // UTC-3
      working_hours: [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, open_hour: 9, close_hour: 18 })),
    });
    expect(hours.status, hours.text).toBe(200);
    const p = await policy({ first_response_time_threshold: 2 * 3600, only_during_business_hours: true });
    // Friday 5 March 2027, 17:00 in São Paulo: one working hour left that day.
    vi.useFakeTimers({ toFake: ['Date'] });
    let conversation: { id: number };
    try {
      vi.setSystemTime(Date.UTC(2027, 2, 5, 20, 0));
      conversation = await newConversation(t, account, { inboxId: office.id });
      await apply(conversation.id, p.id);
    } finally {
      vi.useRealTimers();
    }
    const row = await applied(conversation.id);
    // Monday 8 March, 10:00 in São Paulo = 13:00 UTC.
    expect(row.first_response_due_at * 1000).toBe(Date.UTC(2027, 2, 8, 13, 0));
    const runner = jobRunnerOf(t, [slaModule], clock);
    advance(Date.UTC(2027, 2, 8, 12, 59));
    await runner.ensureRecurring();
    await runner.runDue();
    expect((await applied(conversation.id)).sla_status).toBe('active');
    advance(Date.UTC(2027, 2, 8, 13, 1));
    await runner.runDue();
    expect((await applied(conversation.id)).sla_events.map((e: { event_type: string }) => e.event_type)).toEqual([
      'first_response',
    ]);
  });

  it('records a breach once when two instances (two job runners on one database) check at the same time', async () => {
    // PostgreSQL: a second server process on the same database; SQLite serves one process (one connection).
    const second = testDialect === 'postgres' ? await buildChatTestApp({}, { sameDatabaseAs: t }) : t;
    try {
      const p = await policy({ first_response_time_threshold: 60 });
      const conversation = await newConversation(t, account, { inboxId: inbox.id });
      await apply(conversation.id, p.id);
      const before = await countRows(t.db, 'sla_events');
      advance(Date.now() + 5 * MIN);
      const one = jobRunnerOf(t, [slaModule], clock);
      const two = jobRunnerOf(second, [slaModule], clock);
      // Both runners, and both instances' sweeps directly (as after a lease ran out), at once.
      const sweep = (app: ChatTestApp) => servicesOf(app).services.appliedSlas.sweep(now);
      await Promise.all([one.runDue(), two.runDue(), sweep(t), sweep(second), sweep(t), sweep(second)]);
      expect(await countRows(t.db, 'sla_events')).toBe(before + 1);
      const events = (await missedEvents()).filter((e) => e.conversation.id === conversation.id);
      expect(events).toHaveLength(1);
    } finally {
      if (second !== t) await second.close();
    }
  });

  it('applies a policy through the automation action add_sla, and a webhook may subscribe to sla_missed', async () => {
    const p = await policy({ first_response_time_threshold: 60 });
    const rule = await api().post(`${account.path}/automation_rules`, {
      name: 'Everything gets an SLA',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'add_sla', action_params: [p.id] }],
    });
    expect(rule.status, rule.text).toBe(200);
    const hook = await api().post(`${account.path}/webhooks`, {
      url: 'https://hooks.example.test/sla',
      subscriptions: ['sla_missed'],
    });
    expect(hook.status, hook.text).toBe(200);
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    const dispatcher = dispatcherOf(t, [chatCoreModule, slaModule]);
    await dispatcher.drain();
    expect((await applied(conversation.id)).sla_policy_id).toBe(p.id);
    advance(Date.now() + 5 * MIN);
    await servicesOf(t).services.appliedSlas.sweep(now);
    await dispatcher.drain();
    const deliveries = await t.db.selectFrom('webhook_deliveries').selectAll().execute();
    const bodies = deliveries.map((d) => JSON.parse(String((d as Record<string, unknown>).payload ?? '{}')));
    expect(bodies).toContainEqual(
      expect.objectContaining({ event: 'sla_missed', conversation: { id: conversation.id, inbox_id: inbox.id } }),
    );
    // Rules delete with the test's other rules: keep later conversations free of it.
    await api().delete(`${account.path}/automation_rules/${rule.body.id ?? rule.body.payload?.id}`);
  });
});
