import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  newTeam,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** The engine with the dispatcher running as in production (fast polling). */
let t: ChatTestApp;

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { background: { pollIntervalMs: 20 } });
});
afterAll(async () => {
  await t.close();
});

/** Waits until every recorded event (including those rule actions recorded) has been dispatched. */
async function settle(timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await t.db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dispatched_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row.n} events still pending`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function rule(account: TestAccount, body: Record<string, unknown>) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/automation_rules`, {
    name: 'Rule',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload as { id: number };
}

async function conversation(account: TestAccount, id: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/conversations/${id}`);
  expect(res.status).toBe(200);
  return res.body as {
    id: number;
    status: string;
    priority: string;
    labels: string[];
    muted: boolean;
    team: { id: number } | null;
    assignee: { id: number } | null;
  };
}

async function runs(account: TestAccount, ruleId: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/automation_rules/${ruleId}/runs`);
  expect(res.status).toBe(200);
  return res.body.payload as {
    id: number;
    rule_id: number;
    event_name: string;
    event_id: number;
    conversation_id: number;
    outcome: string;
    actions_applied: string[];
    error: string | null;
    created_at: number;
  }[];
}

describe('automation engine', () => {
  it('conversation_created: assigns a team and adds a label; the run is logged', async () => {
    const acc = await newAccount(t);
    const team = await newTeam(t, acc, 'Support team');
    const r = await rule(acc, {
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [
        { action_name: 'assign_team', action_params: [team.id] },
        { action_name: 'add_label', action_params: ['new-lead'] },
      ],
    });
    const c = await newConversation(t, acc);
    await settle();
    const after = await conversation(acc, c.id);
    expect(after.team?.id).toBe(team.id);
    expect(after.labels).toEqual(['new-lead']);

    const log = await runs(acc, r.id);
    expect(log).toEqual([
      {
        id: expect.any(Number),
        rule_id: r.id,
        event_name: 'conversation_created',
        event_id: expect.any(Number),
        conversation_id: c.id,
        outcome: 'applied',
        actions_applied: ['assign_team', 'add_label'],
        error: null,
        created_at: expect.any(Number),
      },
    ]);
    // The rule's own changes were recorded as automation events and triggered nothing more.
    const updates = await t.db
      .selectFrom('outbox_events')
      .select(['origin'])
      .where('account_id', '=', acc.id)
      .where('name', '=', 'conversation_updated')
      .execute();
    expect(updates.length).toBe(2);
    expect(updates.every((e) => e.origin === 'automation')).toBe(true);
  });

  it("assign_agent assigns an agent of the conversation's inbox", async () => {
    const acc = await newAccount(t);
    const inbox = await newInbox(t, acc);
    const agent = await newAgent(t, acc, 'Rita Router');
    await addInboxMembers(t, acc, inbox.id, [agent.id]);
    await rule(acc, {
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'assignee_id', filter_operator: 'is_not_present' }],
      actions: [{ action_name: 'assign_agent', action_params: [agent.id] }],
    });
    const c = await newConversation(t, acc, { inboxId: inbox.id });
    await settle();
    expect((await conversation(acc, c.id)).assignee?.id).toBe(agent.id);
    // The agent now sees it in their own list.
    const mine = await client(t.app, agent.token).get(`${acc.path}/conversations?assignee_type=me`);
    expect(mine.body.data.payload.map((x: { id: number }) => x.id)).toEqual([c.id]);
  });

  it('chains conditions with AND/OR; a conversation that matches neither branch is untouched', async () => {
    const acc = await newAccount(t);
    const inboxA = await newInbox(t, acc, { type: 'api' }, 'A');
    const inboxB = await newInbox(t, acc, { type: 'api' }, 'B');
    // (inbox = A AND status = pending) OR contact name contains "vip"
    const r = await rule(acc, {
      event_name: 'conversation_created',
      conditions: [
        { attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [inboxA.id], query_operator: 'AND' },
        { attribute_key: 'status', filter_operator: 'equal_to', values: ['pending'], query_operator: 'OR' },
        { attribute_key: 'contact_name', filter_operator: 'contains', values: ['VIP'] },
      ],
      actions: [{ action_name: 'change_priority', action_params: ['high'] }],
    });
    const contactIn = async (inboxId: number, name: string) => {
      const sourceId = `src-${Math.random().toString(36).slice(2)}`;
      await newContact(t, acc, { name, inbox_id: inboxId, source_id: sourceId });
      return sourceId;
    };
    const pendingInA = await newConversation(t, acc, {
      inboxId: inboxA.id,
      contactSourceId: await contactIn(inboxA.id, 'Plain'),
      status: 'pending',
    });
    const vipInB = await newConversation(t, acc, {
      inboxId: inboxB.id,
      contactSourceId: await contactIn(inboxB.id, 'Big Vip Person'),
    });
    const openInA = await newConversation(t, acc, {
      inboxId: inboxA.id,
      contactSourceId: await contactIn(inboxA.id, 'Plain Too'),
    });
    const pendingInB = await newConversation(t, acc, {
      inboxId: inboxB.id,
      contactSourceId: await contactIn(inboxB.id, 'Nobody'),
      status: 'pending',
    });
    await settle();
    expect((await conversation(acc, pendingInA.id)).priority).toBe('high');
    expect((await conversation(acc, vipInB.id)).priority).toBe('high');
    expect((await conversation(acc, openInA.id)).priority).toBe('none');
    expect((await conversation(acc, pendingInB.id)).priority).toBe('none');
    expect((await runs(acc, r.id)).map((x) => x.conversation_id).sort()).toEqual([pendingInA.id, vipInB.id].sort());
  });

  it('message_created: content contains (any case) and message_type incoming', async () => {
    const acc = await newAccount(t);
    await rule(acc, {
      event_name: 'message_created',
      conditions: [
        { attribute_key: 'message_type', filter_operator: 'equal_to', values: ['incoming'], query_operator: 'and' },
        { attribute_key: 'content', filter_operator: 'contains', values: ['refund'] },
      ],
      actions: [{ action_name: 'add_label', action_params: ['billing'] }],
    });
    const c1 = await newConversation(t, acc);
    const c2 = await newConversation(t, acc);
    const c3 = await newConversation(t, acc);
    await newMessage(t, acc, c1.id, { content: 'I want a REFUND, 100%_now', message_type: 'incoming' });
    await newMessage(t, acc, c2.id, { content: 'Hello there', message_type: 'incoming' });
    await newMessage(t, acc, c3.id, { content: 'We issued your refund', message_type: 'outgoing' });
    await settle();
    expect((await conversation(acc, c1.id)).labels).toEqual(['billing']);
    expect((await conversation(acc, c2.id)).labels).toEqual([]);
    expect((await conversation(acc, c3.id)).labels).toEqual([]);
  });

  it('change_status on creation, and conversation_resolved / conversation_opened rules', async () => {
    const acc = await newAccount(t);
    await rule(acc, {
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'change_status', action_params: ['pending'] }],
    });
    await rule(acc, {
      event_name: 'conversation_resolved',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['resolved'] }],
      actions: [{ action_name: 'add_label', action_params: ['was-resolved'] }],
    });
    await rule(acc, {
      event_name: 'conversation_opened',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'change_priority', action_params: ['urgent'] }],
    });
    const c = await newConversation(t, acc);
    await settle();
    // The rule's own status change (an automation event) does not trigger the conversation_opened rule.
    expect(await conversation(acc, c.id)).toMatchObject({ status: 'pending', priority: 'none', labels: [] });

    const admin = client(t.app, acc.admin.token);
    expect((await admin.post(`${acc.path}/conversations/${c.id}/toggle_status`, { status: 'resolved' })).status).toBe(
      200,
    );
    await settle();
    expect(await conversation(acc, c.id)).toMatchObject({
      status: 'resolved',
      labels: ['was-resolved'],
      priority: 'none',
    });

    expect((await admin.post(`${acc.path}/conversations/${c.id}/toggle_status`, { status: 'open' })).status).toBe(200);
    await settle();
    expect(await conversation(acc, c.id)).toMatchObject({ status: 'open', priority: 'urgent' });
  });

  it('conversation_updated: remove_label and mute_conversation; inactive rules do not run', async () => {
    const acc = await newAccount(t);
    const r = await rule(acc, {
      event_name: 'conversation_updated',
      conditions: [{ attribute_key: 'labels', filter_operator: 'contains', values: ['spam'] }],
      actions: [
        { action_name: 'remove_label', action_params: ['spam'] },
        { action_name: 'mute_conversation', action_params: [] },
      ],
    });
    await rule(acc, {
      event_name: 'conversation_updated',
      active: false,
      conditions: [{ attribute_key: 'labels', filter_operator: 'contains', values: ['spam'] }],
      actions: [{ action_name: 'change_priority', action_params: ['low'] }],
    });
    const c = await newConversation(t, acc);
    await settle();
    const admin = client(t.app, acc.admin.token);
    expect((await admin.post(`${acc.path}/conversations/${c.id}/labels`, { labels: ['spam', 'keep'] })).status).toBe(
      200,
    );
    await settle();
    expect(await conversation(acc, c.id)).toMatchObject({ labels: ['keep'], muted: true, priority: 'none' });
    expect((await runs(acc, r.id))[0]).toMatchObject({
      event_name: 'conversation_updated',
      outcome: 'applied',
      actions_applied: ['remove_label', 'mute_conversation'],
    });
  });

  it('a failing rule is rolled back alone and logged as failed; other rules and webhooks still happen', async () => {
    const acc = await newAccount(t);
    const leaver = await newAgent(t, acc, 'Leaver');
    const receiver = await new TestReceiver().start();
    try {
      const hook = await client(t.app, acc.admin.token).post(`${acc.path}/webhooks`, {
        url: receiver.url,
        subscriptions: ['conversation_created'],
      });
      expect(hook.status).toBe(200);
      const failing = await rule(acc, {
        event_name: 'conversation_created',
        conditions: [{ attribute_key: 'status', filter_operator: 'is_present' }],
        actions: [
          { action_name: 'add_label', action_params: ['from-failing-rule'] },
          { action_name: 'assign_agent', action_params: [leaver.id] },
        ],
      });
      const working = await rule(acc, {
        event_name: 'conversation_created',
        conditions: [{ attribute_key: 'status', filter_operator: 'is_present' }],
        actions: [{ action_name: 'add_label', action_params: ['ok'] }],
      });
      // The agent leaves the account after the rule was saved.
      expect((await client(t.app, acc.admin.token).delete(`${acc.path}/agents/${leaver.id}`)).status).toBe(200);

      const c = await newConversation(t, acc);
      await settle();
      const after = await conversation(acc, c.id);
      expect(after.labels).toEqual(['ok']); // the failing rule's first action was rolled back with it
      expect(after.assignee).toBeNull();

      const [failed] = await runs(acc, failing.id);
      expect(failed).toMatchObject({ outcome: 'failed', conversation_id: c.id, actions_applied: [] });
      expect(failed.error).toMatch(/action 1 \(assign_agent\): assignee_id is not an agent/);
      expect((await runs(acc, working.id))[0]).toMatchObject({ outcome: 'applied', conversation_id: c.id });

      await receiver.waitFor(1);
      expect(receiver.received[0].json).toMatchObject({ event: 'conversation_created', id: c.id });
      const events = await t.db
        .selectFrom('outbox_events')
        .select(['dispatch_error'])
        .where('account_id', '=', acc.id)
        .execute();
      expect(events.every((e) => e.dispatch_error === null)).toBe(true);
    } finally {
      await receiver.stop();
    }
  });

  it('rules that would ping-pong run once each per user change, never in a loop', async () => {
    const acc = await newAccount(t);
    const a = await rule(acc, {
      name: 'A: high -> low',
      event_name: 'conversation_updated',
      conditions: [{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['high'] }],
      actions: [{ action_name: 'change_priority', action_params: ['low'] }],
    });
    const b = await rule(acc, {
      name: 'B: low -> high',
      event_name: 'conversation_updated',
      conditions: [{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['low'] }],
      actions: [{ action_name: 'change_priority', action_params: ['high'] }],
    });
    const c = await newConversation(t, acc);
    await settle();
    const admin = client(t.app, acc.admin.token);
    expect((await admin.post(`${acc.path}/conversations/${c.id}/toggle_priority`, { priority: 'high' })).status).toBe(
      200,
    );
    await settle();
    // A saw high and set low; B then saw low and set high. Their own events trigger nothing.
    expect((await conversation(acc, c.id)).priority).toBe('high');
    expect((await runs(acc, a.id)).length).toBe(1);
    expect((await runs(acc, b.id)).length).toBe(1);
    const updates = await outboxEvents(t.db, acc.id, 'conversation_updated');
    expect(updates.length).toBe(3);
    const origins = await t.db
      .selectFrom('outbox_events')
      .select('origin')
      .where('account_id', '=', acc.id)
      .where('name', '=', 'conversation_updated')
      .orderBy('id')
      .execute();
    expect(origins.map((o) => o.origin)).toEqual([null, 'automation', 'automation']);

    // A second user change (to low): A (evaluated first, in id order) does not match; B sets high
    // once, and its change triggers nothing. Still no loop.
    expect((await admin.post(`${acc.path}/conversations/${c.id}/toggle_priority`, { priority: 'low' })).status).toBe(
      200,
    );
    await settle();
    expect((await conversation(acc, c.id)).priority).toBe('high');
    expect((await runs(acc, a.id)).length).toBe(1);
    expect((await runs(acc, b.id)).length).toBe(2);
    expect((await outboxEvents(t.db, acc.id, 'conversation_updated')).length).toBe(5);
  });

  it('the runs endpoint lists which rule ran on which conversation, newest first, paginated', async () => {
    const acc = await newAccount(t);
    const r = await rule(acc, {
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'change_priority', action_params: ['medium'] }],
    });
    const first = await newConversation(t, acc);
    await settle();
    const second = await newConversation(t, acc);
    await settle();
    const log = await runs(acc, r.id);
    expect(log.map((x) => [x.conversation_id, x.outcome, x.actions_applied])).toEqual([
      [second.id, 'applied', ['change_priority']],
      [first.id, 'applied', ['change_priority']],
    ]);
    expect(log[0].event_id).toBeGreaterThan(log[1].event_id);
    const page2 = await client(t.app, acc.admin.token).get(`${acc.path}/automation_rules/${r.id}/runs?page=2`);
    expect(page2.body).toEqual({ meta: { current_page: 2 }, payload: [] });
    // Deleting the rule deletes its log.
    expect((await client(t.app, acc.admin.token).delete(`${acc.path}/automation_rules/${r.id}`)).status).toBe(200);
    const left = await t.db
      .selectFrom('automation_runs')
      .select('id')
      .where('automation_kind', '=', 'automation_rule')
      .where('automation_id', '=', r.id)
      .execute();
    expect(left).toEqual([]);
  });
});
