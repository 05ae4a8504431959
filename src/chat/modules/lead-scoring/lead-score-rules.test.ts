import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../../test/helpers/db.js';
import { newAccount, newAgent, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { rowsOf } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** `{A}/lead_score_rules`: shapes, validation (422 naming the field, nothing written), tenancy and roles. */
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
});
afterAll(async () => {
  await t.close();
});

const admin = () => client(t.app, account.admin.token);
const R = () => `${account.path}/lead_score_rules`;
const rules = () => rowsOf(t, 'lead_score_rules');

describe('lead score rules', () => {
  it('creates a rule with the defaults, wrapped or bare, and lists them in priority order', async () => {
    const bare = await admin().post(R(), { event_type: 'message_received', points: 2 });
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body).toEqual({
      id: expect.any(Number),
      account_id: account.id,
      name: 'message_received',
      description: null,
      event_type: 'message_received',
      event_subtype: null,
      conditions: {},
      points: 2,
      enabled: true,
      priority: 0,
      cooldown_minutes: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const wrapped = await admin().post(R(), {
      lead_score_rule: {
        name: 'Big deal',
        description: 'Worth it',
        event_type: 'card_created',
        points: -15,
        priority: -1,
        cooldown_minutes: 30,
        enabled: false,
        conditions: { value: { operator: 'gte', value: 10000 }, pipeline_id: 3 },
      },
    });
    expect(wrapped.status, JSON.stringify(wrapped.body)).toBe(200);
    expect(wrapped.body).toMatchObject({
      name: 'Big deal',
      points: -15,
      priority: -1,
      enabled: false,
      cooldown_minutes: 30,
    });

    const list = await client(t.app, agent.token).get(R());
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: number }) => r.id)).toEqual([wrapped.body.id, bare.body.id]);
  });

  it.each([
    [{ event_type: 'message_eaten', points: 1 }, 'event_type'],
    [{ event_type: 'custom_event', points: 101 }, 'points'],
    [{ event_type: 'custom_event', points: -101 }, 'points'],
    [{ event_type: 'custom_event', points: 1, conditions: { colour: 'red' } }, 'conditions.colour'],
    [
      { event_type: 'custom_event', points: 1, conditions: { value: { operator: 'about', value: 1 } } },
      'conditions.value.operator',
    ],
    [
      { event_type: 'custom_event', points: 1, conditions: { value: { operator: 'gt', value: 'x' } } },
      'conditions.value.value',
    ],
    [
      { event_type: 'custom_event', points: 1, conditions: { label: { operator: 'in', value: 'vip' } } },
      'conditions.label.value',
    ],
    [{ event_type: 'custom_event' }, 'points'],
    [{ points: 4 }, 'event_type'],
    [{ event_type: 'custom_event', points: 1.5 }, 'points'],
  ])('refuses %j with a 422 naming %s, writing nothing', async (body, field) => {
    const before = await rules();
    const res = await admin().post(R(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body.details)).toContain(field);
    expect(await rules()).toEqual(before);
  });

  it('updates a rule; bad input is a 422 that changes nothing', async () => {
    const rule = (await admin().post(R(), { event_type: 'agent_replied', points: 1 })).body;
    const res = await admin().patch(`${R()}/${rule.id}`, { lead_score_rule: { points: 3, event_subtype: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: rule.id, points: 3, event_subtype: 'x', event_type: 'agent_replied' });

    const before = await rules();
    for (const body of [
      { points: 500 },
      { event_type: 'nope' },
      { conditions: { value: { operator: 'gt' } } },
      { name: ' ' },
    ]) {
      const bad = await admin().patch(`${R()}/${rule.id}`, body);
      expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    }
    expect(await rules()).toEqual(before);
  });

  it("answers 404 for another account's rule on every route, and changes nothing", async () => {
    const theirs = (
      await client(t.app, other.admin.token).post(`${other.path}/lead_score_rules`, {
        event_type: 'custom_event',
        points: 1,
      })
    ).body;
    const before = await rules();
    expect((await admin().get(`${R()}/${theirs.id}`)).status).toBe(404);
    expect((await admin().patch(`${R()}/${theirs.id}`, { points: 9 })).status).toBe(404);
    expect((await admin().delete(`${R()}/${theirs.id}`)).status).toBe(404);
    expect(await rules()).toEqual(before);
    expect((await admin().get(R())).body.map((r: { id: number }) => r.id)).not.toContain(theirs.id);
  });

  it('agents read rules but may not write them (403)', async () => {
    const rule = (await admin().post(R(), { event_type: 'custom_event', points: 1 })).body;
    const api = client(t.app, agent.token);
    const before = await rules();
    expect((await api.get(`${R()}/${rule.id}`)).status).toBe(200);
    expect((await api.post(R(), { event_type: 'custom_event', points: 1 })).status).toBe(403);
    expect((await api.patch(`${R()}/${rule.id}`, { points: 2 })).status).toBe(403);
    expect((await api.delete(`${R()}/${rule.id}`)).status).toBe(403);
    expect((await api.post(`${R()}/create_defaults`)).status).toBe(403);
    expect(await rules()).toEqual(before);
  });

  it('deletes a rule and keeps its logs', async () => {
    const rule = (await admin().post(R(), { event_type: 'custom_event', points: 1 })).body;
    const res = await admin().delete(`${R()}/${rule.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: rule.id, deleted: true });
    expect((await admin().get(`${R()}/${rule.id}`)).status).toBe(404);
  });
});

describe('create_defaults', () => {
  it('creates exactly the default set once; a second call creates nothing', async () => {
    const fresh = await newAccount(t, 'Defaults');
    const api = client(t.app, fresh.admin.token);
    const first = await api.post(`${fresh.path}/lead_score_rules/create_defaults`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const shape = (r: Record<string, unknown>) => [
      r.event_type,
      r.event_subtype,
      r.points,
      r.cooldown_minutes,
      r.conditions,
    ];
    expect(first.body.map(shape)).toEqual([
      ['card_created', null, 15, 0, { value: { operator: 'gte', value: 10000 } }],
      ['first_response', null, 10, 0, { response_minutes: { operator: 'lt', value: 60 } }],
      ['message_received', null, 2, 60, {}],
      ['agent_replied', null, 1, 60, {}],
      ['stage_changed', null, 10, 0, {}],
      ['contact_email_added', null, 5, 0, {}],
      ['contact_phone_added', null, 5, 0, {}],
      ['conversation_resolved', null, -5, 0, {}],
      ['custom_event', 'stale_in_stage', -10, 0, {}],
    ]);
    const count = await countRows(t.db, 'lead_score_rules');
    const second = await api.post(`${fresh.path}/lead_score_rules/create_defaults`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual([]);
    expect(await countRows(t.db, 'lead_score_rules')).toBe(count);
    expect((await api.get(`${fresh.path}/lead_score_rules`)).body).toHaveLength(9);
  });
});
