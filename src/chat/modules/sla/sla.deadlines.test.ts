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
import { chatDeclared } from '../../modules.js';
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

async function removeSlas(...conversationIds: number[]) {
  for (const id of conversationIds) {
    const res = await api().patch(`${account.path}/conversations/${id}`, { sla_policy_id: null });
    expect(res.status, res.text).toBe(200);
  }
}

/** The applied SLA of a conversation, as the list shows it. */
async function applied(conversationId: number) {
  const res = await getWith(t, account.admin.token, `${account.path}/applied_slas`);
  expect(res.status, res.text).toBe(200);
  return res.body.payload.find((a: { conversation: { id: number } }) => a.conversation.id === conversationId);
}

/** Runs `fn` with Date at `ms` (only Date is faked: the app's own clock). */
async function atTime<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(ms);
    return await fn();
  } finally {
    vi.useRealTimers();
  }
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
    await slaModule.jobs!({ ...servicesOf(t), logger: undefined as never, declared: chatDeclared })[0]!.handle(
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

  it('follows an edit of the policy: running deadlines move, breaches already recorded stay', async () => {
    const p = await policy({ first_response_time_threshold: 3600 });
    // After the scheduler's clock, which earlier tests moved ahead.
    const start = Math.max(now, Date.now()) + HOUR;
    const conversation = await atTime(start, async () => {
      const c = await newConversation(t, account, { inboxId: inbox.id });
      await apply(c.id, p.id);
      return c;
    });
    const before = await applied(conversation.id);
    expect(before.first_response_due_at * 1000).toBe(start + HOUR);
    // Another account's administrator cannot edit it, and nothing moves.
    const outsider = await newAccount(t, 'Other SLA');
    await enterprise(t, outsider);
    const foreign = await client(t.app, outsider.admin.token).patch(`${outsider.path}/sla_policies/${p.id}`, {
      first_response_time_threshold: 60,
    });
    expect(foreign.status).toBe(404);
    expect((await applied(conversation.id)).first_response_due_at).toBe(before.first_response_due_at);

    const edited = await atTime(start + MIN, () =>
      api().patch(`${account.path}/sla_policies/${p.id}`, { first_response_time_threshold: 7200 }),
    );
    expect(edited.status, edited.text).toBe(200);
    const moved = await applied(conversation.id);
    expect(moved.first_response_due_at * 1000).toBe(start + 2 * HOUR);
    const shown = await api().get(`${account.path}/conversations/${conversation.id}`);
    expect(shown.body.applied_sla).toMatchObject({
      sla_first_response_time_threshold: 7200,
      first_response_due_at: moved.first_response_due_at,
    });

    const runner = jobRunnerOf(t, [slaModule], clock);
    await runner.ensureRecurring();
    advance(start + 1.5 * HOUR);
    await runner.runDue();
    expect((await applied(conversation.id)).sla_events).toEqual([]);
    expect((await applied(conversation.id)).sla_status).toBe('active');
    advance(start + 2.5 * HOUR);
    await runner.runDue();
    advance(now + 10 * MIN);
    await runner.runDue();
    const missed = await applied(conversation.id);
    expect(missed.sla_status).toBe('missed');
    expect(missed.sla_events).toEqual([
      expect.objectContaining({ event_type: 'first_response', due_at: moved.first_response_due_at }),
    ]);
    expect((await missedEvents()).filter((e) => e.conversation.id === conversation.id)).toHaveLength(1);
    const conversationView = await api().get(`${account.path}/conversations/${conversation.id}`);
    expect(conversationView.body.applied_sla.sla_status).toBe('missed');
    expect(conversationView.body.sla_events).toEqual([
      expect.objectContaining({ event_type: 'first_response', due_at: moved.first_response_due_at }),
    ]);

    // A breached deadline stays as it was, whatever the policy says later.
    await api().patch(`${account.path}/sla_policies/${p.id}`, { first_response_time_threshold: 10 * 3600 });
    const kept = await applied(conversation.id);
    expect(kept.first_response_due_at).toBe(moved.first_response_due_at);
    expect(kept.sla_status).toBe('missed');
    expect(kept.sla_events).toHaveLength(1);
  });

  it('records at once a deadline that an edit puts in the past, and moves resolution and next response deadlines', async () => {
    const p = await policy({
      first_response_time_threshold: 3600,
      next_response_time_threshold: 3600,
      resolution_time_threshold: 4 * 3600,
    });
    const base = Math.max(now, Date.now()) + HOUR;
    const [answered, waiting] = await atTime(base, async () => {
      const a = await newConversation(t, account, { inboxId: inbox.id });
      const w = await newConversation(t, account, { inboxId: inbox.id });
      await apply(a.id, p.id);
      await apply(w.id, p.id);
      return [a, w];
    });
    await atTime(base + MIN, () => newMessage(t, account, answered.id, {}, agent.token)); // the first response
    await atTime(base + 2 * MIN, () => newMessage(t, account, answered.id, { message_type: 'incoming' })); // a wait
    await dispatcherOf(t, [slaModule]).drain();
    const wait = await applied(answered.id);
    expect(wait.next_response_due_at * 1000).toBe(base + 2 * MIN + HOUR);

    const res = await atTime(base + 10 * MIN, () =>
      api().patch(`${account.path}/sla_policies/${p.id}`, {
        first_response_time_threshold: 60,
        next_response_time_threshold: 2 * 3600,
        resolution_time_threshold: 8 * 3600,
      }),
    );
    expect(res.status, res.text).toBe(200);
    // Nobody answered `waiting` within the new minute: breached by the edit itself.
    const late = await applied(waiting.id);
    expect(late.sla_status).toBe('missed');
    expect(late.first_response_due_at * 1000).toBe(base + MIN);
    expect(late.sla_events).toEqual([
      expect.objectContaining({ event_type: 'first_response', due_at: late.first_response_due_at }),
    ]);
    expect(late.resolution_due_at * 1000).toBe(base + 8 * HOUR);
    // `answered` met its first response: that deadline stays; the wait and the resolution move.
    const moved = await applied(answered.id);
    expect(moved.sla_status).toBe('active');
    expect(moved.sla_events).toEqual([]);
    expect(moved.first_response_due_at).toBe(wait.first_response_due_at);
    expect(moved.next_response_due_at * 1000).toBe(base + 2 * MIN + 2 * HOUR);
    expect(moved.resolution_due_at * 1000).toBe(base + 8 * HOUR);
    // No threshold: no next response deadline.
    await api().patch(`${account.path}/sla_policies/${p.id}`, { next_response_time_threshold: null });
    expect((await applied(answered.id)).next_response_due_at).toBeNull();
    await removeSlas(answered.id, waiting.id); // no deadline left for later tests' sweeps
  });

  it('follows the business-hours flag of an edited policy', async () => {
    const office = await newInbox(t, account, { type: 'api' }, 'Office 2');
    await api().patch(`${account.path}/inboxes/${office.id}`, {
      working_hours_enabled: true,
      timezone: 'America/Sao_Paulo',
      working_hours: [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, open_hour: 9, close_hour: 18 })),
    });
    const p = await policy({ first_response_time_threshold: 2 * 3600 });
    vi.useFakeTimers({ toFake: ['Date'] });
    let conversation: { id: number };
    try {
      vi.setSystemTime(Date.UTC(2027, 2, 5, 20, 0)); // Friday 5 March 2027, 17:00 in São Paulo
      conversation = await newConversation(t, account, { inboxId: office.id });
      await apply(conversation.id, p.id);
    } finally {
      vi.useRealTimers();
    }
    expect((await applied(conversation.id)).first_response_due_at * 1000).toBe(Date.UTC(2027, 2, 5, 22, 0));
    await api().patch(`${account.path}/sla_policies/${p.id}`, { only_during_business_hours: true });
    // Monday 8 March, 10:00 in São Paulo.
    expect((await applied(conversation.id)).first_response_due_at * 1000).toBe(Date.UTC(2027, 2, 8, 13, 0));
    await removeSlas(conversation.id);
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
