import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { countRows, outboxEvents } from '../../../../test/helpers/db.js';
import { client } from '../../../../test/helpers/http.js';
import { servicesOf } from '../../../../test/helpers/reports.js';
import { enterprise, getWith } from '../../../../test/helpers/sla.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { countingQueries } from '../../../../test/helpers/query-counter.js';
import { routeEvent, type AgentSubscription } from '../../../chat/realtime/realtime.routing.js';

/** The SLA endpoints: plan gating, policies, applying one, inbox working hours. */
let t: ChatTestApp;
let account: TestAccount;
let outsider: TestAccount;
let agent: { id: number; token: string };
let inbox: { id: number };
const api = () => client(t.app, account.admin.token);
const policyBody = {
  name: 'Gold',
  description: 'Answer fast',
  first_response_time_threshold: 3600,
  next_response_time_threshold: 1800,
  resolution_time_threshold: 86400,
  only_during_business_hours: true,
};

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  outsider = await newAccount(t, 'Outsider');
  agent = await newAgent(t, account);
  inbox = await newInbox(t, account);
  await addInboxMembers(t, account, inbox.id, [agent.id]);
});
afterAll(async () => {
  await t.close();
});

describe('SLA plan gating', () => {
  it('answers 402 plan_required on every SLA endpoint until the platform sets the plan', async () => {
    const basic = await newAccount(t, 'Basic');
    const c = client(t.app, basic.admin.token);
    for (const res of [
      await c.get(`${basic.path}/sla_policies`),
      await c.post(`${basic.path}/sla_policies`, policyBody),
      await c.get(`${basic.path}/sla_policies/1`),
      await c.get(`${basic.path}/applied_slas`),
      await c.get(`${basic.path}/applied_slas/metrics`),
      await c.get(`${basic.path}/applied_slas/download`),
    ]) {
      expect(res.status, res.text).toBe(402);
      expect(res.body.code).toBe('plan_required');
      // The sentence says how an operator turns the plan on.
      expect(res.body.error).toContain(`node dist/cli.js chat:set-account --account ${basic.id} --plan enterprise`);
      expect(res.body.error).toContain(`PATCH /platform/api/v1/accounts/${basic.id} {"plan": "enterprise"}`);
      expect(res.body.error).toContain('DEFAULT_ACCOUNT_PLAN=enterprise');
    }
    const conversation = await newConversation(t, basic);
    const patch = await c.patch(`${basic.path}/conversations/${conversation.id}`, { sla_policy_id: 1 });
    expect(patch.status).toBe(402);
    expect(await countRows(t.db, 'sla_policies')).toBe(0);
    await enterprise(t, basic);
    expect((await c.get(`${basic.path}/sla_policies`)).body).toEqual({ data: [] });
    await enterprise(t, basic, null);
    expect((await c.get(`${basic.path}/sla_policies`)).status).toBe(402);
  });
});

describe('DEFAULT_ACCOUNT_PLAN', () => {
  it('gives new accounts the community plan unless set to enterprise, which opens SLAs at once', async () => {
    expect((await newAccount(t, 'Community')).id).toBeGreaterThan(0);
    const plans = await t.db.selectFrom('accounts').select('plan').where('name', '=', 'Community').execute();
    expect(plans).toEqual([{ plan: 'community' }]);
    const open = await buildChatTestApp({ DEFAULT_ACCOUNT_PLAN: 'enterprise' });
    try {
      const acme = await newAccount(open, 'Everything');
      const res = await client(open.app, acme.admin.token).get(`${acme.path}/sla_policies`);
      expect(res.status, res.text).toBe(200);
      // A plan named at creation still wins.
      const named = await client(open.app, open.platformToken).post('/platform/api/v1/accounts', {
        name: 'Small',
        plan: 'community',
      });
      expect(named.body.plan).toBe('community');
    } finally {
      await open.close();
    }
  });
});

describe('SLA policies', () => {
  beforeAll(async () => {
    await enterprise(t, account);
    await enterprise(t, outsider);
  });

  it('are created, read, listed, updated and deleted', async () => {
    const created = await api().post(`${account.path}/sla_policies`, policyBody);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      ...policyBody,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const id = created.body.id;
    expect((await api().get(`${account.path}/sla_policies/${id}`)).body).toEqual(created.body);
    // Agents read policies.
    const list = await client(t.app, agent.token).get(`${account.path}/sla_policies`);
    expect(list.body).toEqual({ data: [created.body] });
    const patched = await api().patch(`${account.path}/sla_policies/${id}`, {
      name: 'Platinum',
      next_response_time_threshold: null,
      only_during_business_hours: false,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Platinum',
      next_response_time_threshold: null,
      first_response_time_threshold: 3600,
      only_during_business_hours: false,
    });
    expect((await api().delete(`${account.path}/sla_policies/${id}`)).status).toBe(200);
    expect((await api().get(`${account.path}/sla_policies/${id}`)).status).toBe(404);
  });

  it('refuse bad input with 422 and change nothing', async () => {
    const before = await countRows(t.db, 'sla_policies');
    for (const body of [
      {},
      { name: 'No threshold' },
      { ...policyBody, first_response_time_threshold: 0 },
      { ...policyBody, first_response_time_threshold: 'soon' },
      { ...policyBody, name: '   ' },
      { ...policyBody, resolution_time_threshold: 60 },
      { ...policyBody, only_during_business_hours: 'yes please' },
    ]) {
      const res = await api().post(`${account.path}/sla_policies`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toEqual(expect.any(String));
    }
    const id = (await api().post(`${account.path}/sla_policies`, policyBody)).body.id;
    expect(
      (await api().patch(`${account.path}/sla_policies/${id}`, { first_response_time_threshold: null })).status,
    ).toBe(422);
    expect(await countRows(t.db, 'sla_policies')).toBe(before + 1);
  });

  it("answer 404 to another account's policy and to a non-member, 403 to an agent writing", async () => {
    const theirs = (await client(t.app, outsider.admin.token).post(`${outsider.path}/sla_policies`, policyBody)).body;
    expect((await api().get(`${account.path}/sla_policies/${theirs.id}`)).status).toBe(404);
    expect((await api().patch(`${account.path}/sla_policies/${theirs.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await api().delete(`${account.path}/sla_policies/${theirs.id}`)).status).toBe(404);
    expect((await client(t.app, outsider.admin.token).get(`${account.path}/sla_policies`)).status).toBe(404);
    const byAgent = await client(t.app, agent.token).post(`${account.path}/sla_policies`, policyBody);
    expect(byAgent.status).toBe(403);
    expect((await client(t.app, agent.token).get(`${account.path}/applied_slas`)).status).toBe(403);
    expect((await client(t.app, agent.token).get(`${account.path}/applied_slas/metrics`)).status).toBe(403);
    expect((await getWith(t, agent.token, `${account.path}/applied_slas/download`)).status).toBe(403);
  });
});

describe('applying a policy', () => {
  it('by PATCH sla_policy_id, listed in applied_slas with its filters; another account’s policy is 404', async () => {
    await enterprise(t, account);
    const policy = (await api().post(`${account.path}/sla_policies`, { ...policyBody, name: 'Apply' })).body;
    const conversation = await newConversation(t, account, { inboxId: inbox.id, assigneeId: agent.id });
    const res = await api().patch(`${account.path}/conversations/${conversation.id}`, { sla_policy_id: policy.id });
    expect(res.status, res.text).toBe(200);
    const list = await getWith(t, account.admin.token, `${account.path}/applied_slas`, { sla_policy_id: policy.id });
    expect(list.status, list.text).toBe(200);
    expect(list.body.meta).toEqual({ count: 1, current_page: 1 });
    expect(list.body.payload[0]).toMatchObject({
      sla_policy_id: policy.id,
      sla_status: 'active',
      sla_policy: { id: policy.id, name: 'Apply' },
      conversation: { id: conversation.id, inbox_id: inbox.id, status: 'open', assignee_id: agent.id },
      sla_events: [],
    });
    for (const [query, count] of [
      [{ status: 'active' }, 1],
      [{ status: 'missed' }, 0],
      [{ inbox_id: inbox.id }, 1],
      [{ assigned_agent_id: agent.id }, 1],
      [{ assigned_agent_id: account.admin.id }, 0],
      [{ team_id: 999999 }, 0],
    ] as const) {
      const page = await getWith(t, account.admin.token, `${account.path}/applied_slas`, {
        sla_policy_id: policy.id,
        ...query,
      });
      expect(page.body.meta.count, JSON.stringify(query)).toBe(count);
    }
    expect((await getWith(t, account.admin.token, `${account.path}/applied_slas`, { status: 'late' })).status).toBe(
      422,
    );
    expect(
      (await getWith(t, account.admin.token, `${account.path}/applied_slas`, { since: 100, until: 50 })).status,
    ).toBe(422);

    const theirs = (
      await client(t.app, outsider.admin.token).post(`${outsider.path}/sla_policies`, { ...policyBody, name: 'X' })
    ).body;
    const foreign = await api().patch(`${account.path}/conversations/${conversation.id}`, { sla_policy_id: theirs.id });
    expect(foreign.status).toBe(404);
    expect(
      (await getWith(t, account.admin.token, `${account.path}/applied_slas`, { sla_policy_id: theirs.id })).status,
    ).toBe(404);
    // Removing it.
    await api().patch(`${account.path}/conversations/${conversation.id}`, { sla_policy_id: null });
    const after = await getWith(t, account.admin.token, `${account.path}/applied_slas`, { sla_policy_id: policy.id });
    expect(after.body.meta.count).toBe(0);
  });

  it('by the automation action add_sla, which names a policy of the account', async () => {
    const policy = (await api().post(`${account.path}/sla_policies`, { ...policyBody, name: 'Rule' })).body;
    const bad = await api().post(`${account.path}/automation_rules`, {
      name: 'SLA',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'add_sla', action_params: [999999] }],
    });
    expect(bad.status).toBe(422);
    const rule = await api().post(`${account.path}/automation_rules`, {
      name: 'SLA',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'add_sla', action_params: [policy.id] }],
    });
    expect(rule.status, rule.text).toBe(200);
  });
});

describe('conversations show their SLA', () => {
  const none = { sla_policy_id: null, applied_sla: null, sla_events: [] };

  it('in show, list, filter, PATCH and the conversation events; null without one', async () => {
    await enterprise(t, account);
    const policy = (await api().post(`${account.path}/sla_policies`, { ...policyBody, name: 'Shown' })).body;
    const withSla = await newConversation(t, account, { inboxId: inbox.id });
    const without = await newConversation(t, account, { inboxId: inbox.id });
    expect(withSla).toMatchObject(none); // POST conversations
    const patched = await api().patch(`${account.path}/conversations/${withSla.id}`, { sla_policy_id: policy.id });
    expect(patched.status, patched.text).toBe(200);
    const shown = {
      sla_policy_id: policy.id,
      applied_sla: {
        id: expect.any(Number),
        sla_id: policy.id,
        sla_status: 'active',
        sla_name: 'Shown',
        sla_description: 'Answer fast',
        sla_first_response_time_threshold: 3600,
        sla_next_response_time_threshold: 1800,
        sla_resolution_time_threshold: 86400,
        sla_only_during_business_hours: true,
        first_response_due_at: expect.any(Number),
        next_response_due_at: null,
        resolution_due_at: expect.any(Number),
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
      sla_events: [],
    };
    expect(patched.body).toMatchObject(shown);
    const show = await api().get(`${account.path}/conversations/${withSla.id}`);
    expect(show.body).toMatchObject(shown);
    expect(show.body.applied_sla).toEqual(patched.body.applied_sla);
    expect((await api().get(`${account.path}/conversations/${without.id}`)).body).toMatchObject(none);

    const list = await getWith(t, account.admin.token, `${account.path}/conversations`, { status: 'all' });
    expect(list.status, list.text).toBe(200);
    const listed = (id: number) => list.body.data.payload.find((c: { id: number }) => c.id === id);
    expect(listed(withSla.id)).toMatchObject(shown);
    expect(listed(without.id)).toMatchObject(none);
    const filtered = await api().post(`${account.path}/conversations/filter`, {
      payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
    });
    expect(filtered.status, filtered.text).toBe(200);
    const found = (id: number) => filtered.body.payload.find((c: { id: number }) => c.id === id);
    expect(found(withSla.id)).toMatchObject(shown);
    expect(found(without.id)).toMatchObject(none);

    // Applying it was a change of the conversation: conversation_updated (webhooks, realtime) carries it.
    const updates = async () =>
      (await outboxEvents(t.db, account.id, 'conversation_updated'))
        .map((e) => e.payload)
        .filter((p) => p.id === withSla.id);
    expect((await updates()).at(-1)).toMatchObject({
      ...shown,
      changed_attributes: [{ sla_policy_id: { previous_value: null, current_value: policy.id } }],
    });
    // The same policy again changes nothing and records nothing.
    const again = await api().patch(`${account.path}/conversations/${withSla.id}`, { sla_policy_id: policy.id });
    expect(again.body).toMatchObject(shown);
    expect(await updates()).toHaveLength(1);
    // Removing it.
    const removed = await api().patch(`${account.path}/conversations/${withSla.id}`, { sla_policy_id: null });
    expect(removed.body).toMatchObject(none);
    expect((await updates()).at(-1)).toMatchObject({
      ...none,
      changed_attributes: [{ sla_policy_id: { previous_value: policy.id, current_value: null } }],
    });
  });

  it('are loaded for a whole page at once: as many queries for 30 conversations as for 1', async () => {
    const policy = (await api().post(`${account.path}/sla_policies`, { ...policyBody, name: 'Page' })).body;
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const c = await newConversation(t, account, { inboxId: inbox.id });
      if (i % 2 === 0) await api().patch(`${account.path}/conversations/${c.id}`, { sla_policy_id: policy.id });
      ids.push(c.id);
    }
    const rows = await t.db
      .selectFrom('conversations')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('display_id', 'in', ids)
      .orderBy('display_id')
      .execute();
    const counted = countingQueries(t.db);
    const { services } = servicesOf(t);
    const load = async (page: typeof rows) => {
      counted.counter.queries = 0;
      const bundles = await services.conversations.bundles.load(counted.db, account.id, page);
      return { bundles, queries: counted.counter.queries };
    };
    const one = await load(rows.slice(0, 1));
    const all = await load(rows);
    expect(one.bundles[0]!.sla?.sla_policy_id).toBe(policy.id);
    expect(all.bundles.filter((b) => b.sla?.sla_policy_id === policy.id)).toHaveLength(15);
    expect(all.queries).toBe(one.queries);
  });
});

describe('inbox working hours', () => {
  it('are set by inbox PATCH, validated, and shown by the inbox and the public inbox', async () => {
    const widget = await newInbox(t, account, { type: 'api' }, 'Hours');
    const res = await api().patch(`${account.path}/inboxes/${widget.id}`, {
      working_hours_enabled: true,
      timezone: 'America/Sao_Paulo',
      working_hours: [
        { day_of_week: 1, open_hour: 8, open_minutes: 30, close_hour: 18, close_minutes: 0 },
        { day_of_week: 6, closed_all_day: true },
        { day_of_week: 0, open_all_day: true },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.working_hours_enabled).toBe(true);
    expect(res.body.timezone).toBe('America/Sao_Paulo');
    expect(res.body.working_hours).toHaveLength(7);
    expect(res.body.working_hours[0]).toMatchObject({ day_of_week: 0, open_all_day: true, closed_all_day: false });
    expect(res.body.working_hours[1]).toMatchObject({ open_hour: 8, open_minutes: 30, close_hour: 18 });
    expect(res.body.working_hours[2]).toMatchObject({ open_hour: 9, close_hour: 17 }); // the default kept
    expect(res.body.working_hours[6]).toMatchObject({ closed_all_day: true, open_hour: null });
    const pub = await client(t.app).get(`/public/api/v1/inboxes/${widget.inbox_identifier}`);
    expect(pub.body.working_hours).toEqual(res.body.working_hours);

    for (const working_hours of [
      [{ day_of_week: 1, open_hour: 18, close_hour: 8 }],
      [{ day_of_week: 1, open_hour: 9 }],
      [
        { day_of_week: 2, closed_all_day: true },
        { day_of_week: 2, closed_all_day: true },
      ],
      [{ day_of_week: 7, closed_all_day: true }],
      [{ day_of_week: 1, open_hour: 25, close_hour: 26 }],
    ]) {
      const bad = await api().patch(`${account.path}/inboxes/${widget.id}`, { working_hours });
      expect(bad.status, JSON.stringify(working_hours)).toBe(422);
    }
    expect((await api().patch(`${account.path}/inboxes/${widget.id}`, { timezone: 'Mars/Olympus' })).status).toBe(422);
    const kept = await api().get(`${account.path}/inboxes/${widget.id}`);
    expect(kept.body.working_hours).toEqual(res.body.working_hours);
  });
});

describe('realtime', () => {
  it('pushes sla.missed to the staff who see the inbox, never to contacts', () => {
    const route = routeEvent({
      name: 'sla_missed',
      accountId: 1,
      payload: { event: 'sla_missed', inbox_id: 7 },
    } as never)!;
    const user = (role: 'agent' | 'administrator', inboxes: number[]): AgentSubscription => ({
      kind: 'user',
      accountId: 1,
      userId: 1,
      role,
      inboxIds: new Set(inboxes),
      checkedAt: 0,
    });
    expect(route(user('agent', [7])).map((m) => m.event)).toEqual(['sla.missed']);
    expect(route(user('agent', [8]))).toEqual([]);
    expect(route(user('administrator', []))).toHaveLength(1);
    expect(route({ kind: 'contact', accountId: 1, contactInboxId: 1, inboxId: 7, sourceId: 's' })).toEqual([]);
  });
});
