import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../../test/helpers/db.js';
import { newAccount, newAgent, newTeam, type TestAccount } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let acme: TestAccount;
let other: TestAccount;
let agentId: number;
let agentToken: string;
let teamId: number;

beforeAll(async () => {
  t = await buildChatTestApp();
  acme = await newAccount(t, 'Acme');
  other = await newAccount(t, 'Other');
  const agent = await newAgent(t, acme, 'Ann Agent');
  agentId = agent.id;
  agentToken = agent.token;
  teamId = (await newTeam(t, acme, 'Sales')).id;
});
afterAll(async () => {
  await t.close();
});

const admin = () => client(t.app, acme.admin.token);

function validRule(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Route VIPs',
    description: 'VIP conversations go to sales',
    event_name: 'conversation_created',
    conditions: [
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'AND' },
      { attribute_key: 'contact_name', filter_operator: 'contains', values: ['vip'], query_operator: null },
    ],
    actions: [
      { action_name: 'assign_team', action_params: [teamId] },
      { action_name: 'add_label', action_params: ['VIP', ' priority '] },
      { action_name: 'assign_agent', action_params: [String(agentId)] },
      { action_name: 'send_email', action_params: ['boss@example.test'] },
      { action_name: 'mute_conversation', action_params: [] },
      { action_name: 'change_status', action_params: ['pending'] },
      { action_name: 'change_priority', action_params: ['urgent'] },
      { action_name: 'remove_label', action_params: ['spam'] },
    ],
    ...overrides,
  };
}

describe('automation rules CRUD', () => {
  it('creates a rule and returns it in full (Chatwoot shape, normalized params)', async () => {
    const res = await admin().post(`${acme.path}/automation_rules`, validRule());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rule = res.body.payload;
    expect(rule).toEqual({
      id: expect.any(Number),
      account_id: acme.id,
      name: 'Route VIPs',
      description: 'VIP conversations go to sales',
      event_name: 'conversation_created',
      conditions: [
        { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'AND' },
        { attribute_key: 'contact_name', filter_operator: 'contains', values: ['vip'], query_operator: null },
      ],
      actions: [
        { action_name: 'assign_team', action_params: [teamId] },
        { action_name: 'add_label', action_params: ['priority', 'vip'] },
        { action_name: 'assign_agent', action_params: [agentId] },
        { action_name: 'send_email', action_params: ['boss@example.test'] },
        { action_name: 'mute_conversation', action_params: [] },
        { action_name: 'change_status', action_params: ['pending'] },
        { action_name: 'change_priority', action_params: ['urgent'] },
        { action_name: 'remove_label', action_params: ['spam'] },
      ],
      active: true,
      created_at: expect.any(Number),
      created_on: rule.created_at,
    });
    expect(Math.abs(rule.created_at - Date.now() / 1000)).toBeLessThan(60);

    const shown = await admin().get(`${acme.path}/automation_rules/${rule.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toEqual(rule);
  });

  it('accepts a body wrapped in automation_rule, the extra event names and active=false', async () => {
    for (const event_name of ['conversation_opened', 'conversation_resolved', 'conversation_updated']) {
      const res = await admin().post(`${acme.path}/automation_rules`, {
        automation_rule: validRule({ event_name, active: false }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.payload).toMatchObject({ event_name, active: false });
    }
  });

  it('lists the rules of the account only, under payload', async () => {
    const mine = await admin().post(`${acme.path}/automation_rules`, validRule({ name: 'Listed' }));
    await client(t.app, other.admin.token).post(`${other.path}/automation_rules`, {
      name: 'Theirs',
      event_name: 'message_created',
      conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['hi'] }],
      actions: [{ action_name: 'add_label', action_params: ['x'] }],
    });
    const res = await admin().get(`${acme.path}/automation_rules`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ current_page: 1 });
    const ids = res.body.payload.map((r: { id: number }) => r.id);
    expect(ids).toContain(mine.body.payload.id);
    expect(res.body.payload.every((r: { account_id: number }) => r.account_id === acme.id)).toBe(true);
    expect(res.body.payload.map((r: { name: string }) => r.name)).not.toContain('Theirs');
    expect((await admin().get(`${acme.path}/automation_rules?page=2`)).body.payload).toEqual([]);
  });

  it('updates name, description, conditions, actions, active and event_name', async () => {
    const created = (await admin().post(`${acme.path}/automation_rules`, validRule())).body.payload;
    const res = await admin().patch(`${acme.path}/automation_rules/${created.id}`, {
      name: 'Renamed',
      description: null,
      event_name: 'message_created',
      conditions: [
        { attribute_key: 'message_type', filter_operator: 'equal_to', values: ['incoming'], query_operator: 'and' },
        { attribute_key: 'content', filter_operator: 'starts_with', values: ['help'] },
      ],
      actions: [{ action_name: 'change_priority', action_params: ['none'] }],
      active: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload).toMatchObject({
      id: created.id,
      name: 'Renamed',
      description: null,
      event_name: 'message_created',
      conditions: [
        { attribute_key: 'message_type', filter_operator: 'equal_to', values: ['incoming'], query_operator: 'and' },
        { attribute_key: 'content', filter_operator: 'starts_with', values: ['help'], query_operator: null },
      ],
      actions: [{ action_name: 'change_priority', action_params: ['none'] }],
      active: false,
      created_at: created.created_at,
    });
    // Only the name: everything else stays.
    const renamed = await admin().patch(`${acme.path}/automation_rules/${created.id}`, { name: 'Again' });
    expect(renamed.body.payload).toEqual({ ...res.body.payload, name: 'Again' });
  });

  it('deletes a rule', async () => {
    const created = (await admin().post(`${acme.path}/automation_rules`, validRule())).body.payload;
    const res = await admin().delete(`${acme.path}/automation_rules/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await admin().get(`${acme.path}/automation_rules/${created.id}`)).status).toBe(404);
    expect((await admin().delete(`${acme.path}/automation_rules/${created.id}`)).status).toBe(404);
  });
});

describe('automation rule validation', () => {
  const invalid: [string, Record<string, unknown>, string][] = [
    ['unknown event', { event_name: 'contact_created' }, 'event_name'],
    [
      'unknown attribute',
      {
        conditions: [
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] },
          { attribute_key: 'password', filter_operator: 'equal_to', values: ['x'] },
        ],
      },
      'conditions.1.attribute_key',
    ],
    [
      'operator of another attribute',
      {
        conditions: [
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] },
          { attribute_key: 'status', filter_operator: 'contains', values: ['op'] },
        ],
      },
      'conditions.1.filter_operator',
    ],
    [
      'unknown operator',
      { conditions: [{ attribute_key: 'status', filter_operator: 'matches_regex', values: ['.*'] }] },
      'conditions.0.filter_operator',
    ],
    [
      'bad enum value',
      { conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['closed'] }] },
      'conditions.0.values',
    ],
    [
      'bad query operator',
      {
        conditions: [
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'XOR' },
          { attribute_key: 'priority', filter_operator: 'is_present' },
        ],
      },
      'conditions.0.query_operator',
    ],
    [
      'message attribute on a conversation event',
      { conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['x'] }] },
      'conditions.0.attribute_key',
    ],
    [
      'message attribute with a bad operator',
      { event_name: 'message_created', conditions: [{ attribute_key: 'content', filter_operator: 'is_present' }] },
      'conditions.0.filter_operator',
    ],
    [
      'message type that does not exist',
      {
        event_name: 'message_created',
        conditions: [{ attribute_key: 'message_type', filter_operator: 'equal_to', values: ['template'] }],
      },
      'conditions.0.values',
    ],
    ['no conditions', { conditions: [] }, 'conditions'],
    [
      'too many conditions',
      { conditions: Array.from({ length: 21 }, () => ({ attribute_key: 'status', filter_operator: 'is_present' })) },
      'conditions',
    ],
    [
      'number as the attribute key',
      { conditions: [{ attribute_key: 5, filter_operator: 'equal_to', values: ['open'] }] },
      'conditions.0.attribute_key',
    ],
    [
      'unknown action',
      {
        actions: [
          { action_name: 'add_label', action_params: ['a'] },
          { action_name: 'delete_everything', action_params: [] },
        ],
      },
      'actions.1.action_name',
    ],
    [
      'assign_agent to a stranger',
      { actions: [{ action_name: 'assign_agent', action_params: [999999] }] },
      'actions.0.action_params',
    ],
    [
      'assign_agent with two ids',
      { actions: [{ action_name: 'assign_agent', action_params: [1, 2] }] },
      'actions.0.action_params',
    ],
    [
      'assign_agent with a word',
      { actions: [{ action_name: 'assign_agent', action_params: ['me'] }] },
      'actions.0.action_params',
    ],
    [
      'assign_team of another account',
      { actions: [{ action_name: 'assign_team', action_params: [999999] }] },
      'actions.0.action_params',
    ],
    [
      'send_email to a non-address',
      { actions: [{ action_name: 'send_email', action_params: ['not-an-email'] }] },
      'actions.0.action_params',
    ],
    [
      'send_email with a header injection',
      { actions: [{ action_name: 'send_email', action_params: ['a@example.test\r\nBcc: x@example.test'] }] },
      'actions.0.action_params',
    ],
    [
      'send_email to 11 addresses',
      {
        actions: [
          { action_name: 'send_email', action_params: Array.from({ length: 11 }, (_, i) => `p${i}@example.test`) },
        ],
      },
      'actions.0.action_params',
    ],
    [
      'change_status to snoozed',
      { actions: [{ action_name: 'change_status', action_params: ['snoozed'] }] },
      'actions.0.action_params',
    ],
    [
      'change_priority to extreme',
      { actions: [{ action_name: 'change_priority', action_params: ['extreme'] }] },
      'actions.0.action_params',
    ],
    [
      'add_label without labels',
      { actions: [{ action_name: 'add_label', action_params: [] }] },
      'actions.0.action_params',
    ],
    [
      'add_label with a comma',
      { actions: [{ action_name: 'add_label', action_params: ['a,b'] }] },
      'actions.0.action_params.0',
    ],
    [
      'mute with params',
      { actions: [{ action_name: 'mute_conversation', action_params: ['now'] }] },
      'actions.0.action_params',
    ],
    ['no actions', { actions: [] }, 'actions'],
    [
      'too many actions',
      { actions: Array.from({ length: 21 }, () => ({ action_name: 'mute_conversation', action_params: [] })) },
      'actions',
    ],
    ['oversized name', { name: 'x'.repeat(256) }, 'name'],
    ['missing name', { name: undefined }, 'name'],
  ];

  it.each(invalid)('%s -> 422 naming %s, nothing saved', async (_label, overrides, field) => {
    const before = await countRows(t.db, 'automation_rules');
    const res = await admin().post(`${acme.path}/automation_rules`, validRule(overrides));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countRows(t.db, 'automation_rules')).toBe(before);
  });

  it('PATCH with a bad action or an event the conditions do not suit -> 422, rule unchanged', async () => {
    const created = (
      await admin().post(
        `${acme.path}/automation_rules`,
        validRule({
          event_name: 'message_created',
          conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['refund'] }],
        }),
      )
    ).body.payload;
    const badAction = await admin().patch(`${acme.path}/automation_rules/${created.id}`, {
      name: 'Changed',
      actions: [
        { action_name: 'change_status', action_params: ['open'] },
        { action_name: 'assign_team', action_params: ['x'] },
      ],
    });
    expect(badAction.status).toBe(422);
    expect(badAction.body.details[0].field).toBe('actions.1.action_params');
    const badEvent = await admin().patch(`${acme.path}/automation_rules/${created.id}`, {
      event_name: 'conversation_updated',
    });
    expect(badEvent.status).toBe(422);
    expect(badEvent.body.details[0].field).toBe('conditions.0.attribute_key');
    expect((await admin().get(`${acme.path}/automation_rules/${created.id}`)).body.payload).toEqual(created);
  });
});

describe('automation rule access', () => {
  it("another account's rule is 404 for show, update, delete and runs", async () => {
    const theirs = (
      await client(t.app, other.admin.token).post(`${other.path}/automation_rules`, {
        name: 'Theirs',
        event_name: 'conversation_created',
        conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
        actions: [{ action_name: 'mute_conversation' }],
      })
    ).body.payload;
    const path = `${acme.path}/automation_rules/${theirs.id}`;
    expect((await admin().get(path)).status).toBe(404);
    expect((await admin().patch(path, { name: 'Mine now' })).status).toBe(404);
    expect((await admin().delete(path)).status).toBe(404);
    expect((await admin().get(`${path}/runs`)).status).toBe(404);
    const still = await client(t.app, other.admin.token).get(`${other.path}/automation_rules/${theirs.id}`);
    expect(still.body.payload.name).toBe('Theirs');
  });

  it('an agent gets 403 on every route; no token gets 401', async () => {
    const created = (await admin().post(`${acme.path}/automation_rules`, validRule())).body.payload;
    const agent = client(t.app, agentToken);
    const anonymous = client(t.app);
    const before = await countRows(t.db, 'automation_rules');
    for (const c of [agent, anonymous]) {
      const expected = c === agent ? 403 : 401;
      expect((await c.get(`${acme.path}/automation_rules`)).status).toBe(expected);
      expect((await c.post(`${acme.path}/automation_rules`, validRule())).status).toBe(expected);
      expect((await c.get(`${acme.path}/automation_rules/${created.id}`)).status).toBe(expected);
      expect((await c.patch(`${acme.path}/automation_rules/${created.id}`, { name: 'x' })).status).toBe(expected);
      expect((await c.delete(`${acme.path}/automation_rules/${created.id}`)).status).toBe(expected);
      expect((await c.get(`${acme.path}/automation_rules/${created.id}/runs`)).status).toBe(expected);
    }
    expect(await countRows(t.db, 'automation_rules')).toBe(before);
    expect((await admin().get(`${acme.path}/automation_rules/${created.id}`)).body.payload.name).toBe('Route VIPs');
  });
});
