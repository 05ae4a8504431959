import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newTeam,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let inboxA: number;
let inboxB: number;
let teamId: number;
const ids: Record<string, number> = {};

type Criterion = { attribute_key: string; filter_operator: string; values?: unknown[]; query_operator?: string | null };

async function filter(payload: Criterion[], token = account.admin.token, page = 1) {
  const res = await client(t.app, token).post(`${account.path}/conversations/filter?page=${page}`, { payload });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { meta: Record<string, number>; payload: { id: number }[] };
}
const idsOf = async (payload: Criterion[], token?: string) =>
  (await filter(payload, token)).payload.map((c) => c.id).sort((a, b) => a - b);
const sorted = (...values: number[]) => values.sort((a, b) => a - b);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Alice');
  inboxA = (await newInbox(t, account)).id;
  inboxB = (await newInbox(t, account, { type: 'api' }, 'Sales')).id;
  await addInboxMembers(t, account, inboxA, [agent.id]);
  teamId = (await newTeam(t, account)).id;
  await newContact(t, account, {
    name: 'Ana 100%_Real',
    email: 'ana@example.test',
    inbox_id: inboxA,
    source_id: 'ana',
  });
  await newContact(t, account, { name: 'Bruno', inbox_id: inboxB, source_id: 'bruno' });
  const api = client(t.app, account.admin.token);
  ids.anaOpen = (
    await newConversation(t, account, { inboxId: inboxA, contactSourceId: 'ana', assigneeId: agent.id })
  ).id;
  ids.anaPending = (
    await newConversation(t, account, { inboxId: inboxA, contactSourceId: 'ana', status: 'pending', teamId })
  ).id;
  ids.brunoOpen = (await newConversation(t, account, { inboxId: inboxB, contactSourceId: 'bruno' })).id;
  ids.brunoResolved = (await newConversation(t, account, { inboxId: inboxB, contactSourceId: 'bruno' })).id;
  await api.post(`${account.path}/conversations/${ids.brunoResolved}/toggle_status`, { status: 'resolved' });
  await api.post(`${account.path}/conversations/${ids.anaPending}/toggle_priority`, { priority: 'high' });
  await api.post(`${account.path}/conversations/${ids.brunoOpen}/labels`, { labels: ['vip', 'billing'] });
  await newConversation(t, other);
});
afterAll(async () => {
  await t.close();
});

describe('POST conversations/filter', () => {
  it('filters by status with counts and the list shape', async () => {
    const res = await filter([{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open', 'pending'] }]);
    expect(res.payload.map((c) => c.id).sort()).toEqual(sorted(ids.anaOpen, ids.anaPending, ids.brunoOpen));
    expect(res.meta).toEqual({ mine_count: 0, unassigned_count: 2, assigned_count: 1, all_count: 3 });
    expect(res.payload[0]).toMatchObject({ account_id: account.id, meta: { channel: 'Channel::Api' } });
    expect(await idsOf([{ attribute_key: 'status', filter_operator: 'not_equal_to', values: ['open'] }])).toEqual(
      sorted(ids.anaPending, ids.brunoResolved),
    );
  });

  it('handles priority none, ids, presence and ranges', async () => {
    expect(await idsOf([{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['high'] }])).toEqual([
      ids.anaPending,
    ]);
    expect(await idsOf([{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['none'] }])).toEqual(
      sorted(ids.anaOpen, ids.brunoOpen, ids.brunoResolved),
    );
    expect(await idsOf([{ attribute_key: 'priority', filter_operator: 'not_equal_to', values: ['none'] }])).toEqual([
      ids.anaPending,
    ]);
    expect(
      await idsOf([{ attribute_key: 'assignee_id', filter_operator: 'equal_to', values: [String(agent.id)] }]),
    ).toEqual([ids.anaOpen]);
    expect(
      await idsOf([{ attribute_key: 'assignee_id', filter_operator: 'not_equal_to', values: [agent.id] }]),
    ).toEqual(sorted(ids.anaPending, ids.brunoOpen, ids.brunoResolved));
    expect(await idsOf([{ attribute_key: 'team_id', filter_operator: 'is_present' }])).toEqual([ids.anaPending]);
    expect(await idsOf([{ attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [inboxB] }])).toEqual(
      sorted(ids.brunoOpen, ids.brunoResolved),
    );
    expect(
      await idsOf([{ attribute_key: 'display_id', filter_operator: 'is_greater_than', values: [ids.anaPending] }]),
    ).toEqual(sorted(ids.brunoOpen, ids.brunoResolved));
    expect(
      await idsOf([{ attribute_key: 'created_at', filter_operator: 'is_greater_than', values: ['2000-01-01'] }]),
    ).toHaveLength(4);
    expect(
      await idsOf([{ attribute_key: 'created_at', filter_operator: 'is_less_than', values: ['2000-01-01'] }]),
    ).toEqual([]);
    expect(await idsOf([{ attribute_key: 'last_activity_at', filter_operator: 'days_before', values: [1] }])).toEqual(
      [],
    );
    // Backdated directly: no endpoint sets an old creation time.
    await t.db
      .updateTable('conversations')
      .set({ created_at: Date.now() - 10 * 86_400_000 })
      .where('account_id', '=', account.id)
      .where('display_id', '=', ids.brunoResolved)
      .execute();
    expect(await idsOf([{ attribute_key: 'created_at', filter_operator: 'days_before', values: ['5'] }])).toEqual([
      ids.brunoResolved,
    ]);
  });

  it('filters by labels and contact text, matching % and _ literally', async () => {
    expect(await idsOf([{ attribute_key: 'labels', filter_operator: 'equal_to', values: ['VIP'] }])).toEqual([
      ids.brunoOpen,
    ]);
    expect(await idsOf([{ attribute_key: 'labels', filter_operator: 'not_equal_to', values: ['vip'] }])).toEqual(
      sorted(ids.anaOpen, ids.anaPending, ids.brunoResolved),
    );
    expect(await idsOf([{ attribute_key: 'labels', filter_operator: 'is_not_present' }])).toEqual(
      sorted(ids.anaOpen, ids.anaPending, ids.brunoResolved),
    );
    expect(await idsOf([{ attribute_key: 'contact_name', filter_operator: 'contains', values: ['100%_r'] }])).toEqual(
      sorted(ids.anaOpen, ids.anaPending),
    );
    expect(await idsOf([{ attribute_key: 'contact_name', filter_operator: 'contains', values: ['%'] }])).toEqual(
      sorted(ids.anaOpen, ids.anaPending),
    );
    expect(await idsOf([{ attribute_key: 'contact_name', filter_operator: 'contains', values: ['100X'] }])).toEqual([]);
    expect(await idsOf([{ attribute_key: 'contact_name', filter_operator: 'starts_with', values: ['bru'] }])).toEqual(
      sorted(ids.brunoOpen, ids.brunoResolved),
    );
    expect(
      await idsOf([{ attribute_key: 'contact_name', filter_operator: 'does_not_contain', values: ['ana'] }]),
    ).toEqual(sorted(ids.brunoOpen, ids.brunoResolved));
    expect(
      await idsOf([{ attribute_key: 'contact_email', filter_operator: 'equal_to', values: ['ANA@example.test'] }]),
    ).toEqual(sorted(ids.anaOpen, ids.anaPending));
    expect(await idsOf([{ attribute_key: 'contact_email', filter_operator: 'is_not_present' }])).toEqual(
      sorted(ids.brunoOpen, ids.brunoResolved),
    );
    expect(
      await idsOf([{ attribute_key: 'contact_name', filter_operator: 'equal_to', values: ["' OR 1=1 --"] }]),
    ).toEqual([]);
  });

  it('chains with AND/OR using SQL precedence', async () => {
    const openInA: Criterion[] = [
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'AND' },
      { attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [inboxA], query_operator: 'OR' },
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['resolved'], query_operator: null },
    ];
    expect(await idsOf(openInA)).toEqual(sorted(ids.anaOpen, ids.brunoResolved));
    const allAnd: Criterion[] = [
      { attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [inboxA], query_operator: 'and' },
      { attribute_key: 'priority', filter_operator: 'equal_to', values: ['high'] },
    ];
    expect(await idsOf(allAnd)).toEqual([ids.anaPending]);
  });

  it('limits agents to their inboxes and pages by 25', async () => {
    const payload: Criterion[] = [{ attribute_key: 'status', filter_operator: 'is_present' }];
    const res = await filter(payload, agent.token);
    expect(res.payload.map((c) => c.id).sort()).toEqual(sorted(ids.anaOpen, ids.anaPending));
    expect(res.meta).toEqual({ mine_count: 1, unassigned_count: 1, assigned_count: 1, all_count: 2 });
    expect((await filter(payload, account.admin.token, 2)).payload).toEqual([]);
  });

  it('answers 422 naming an unknown key, operator, value or query operator', async () => {
    const api = client(t.app, account.admin.token);
    const cases: [Criterion[], string][] = [
      [[{ attribute_key: 'password', filter_operator: 'equal_to', values: ['x'] }], 'payload.0.attribute_key'],
      [[{ attribute_key: 'status', filter_operator: 'matches', values: ['x'] }], 'payload.0.filter_operator'],
      [[{ attribute_key: 'status', filter_operator: 'days_before', values: [1] }], 'payload.0.filter_operator'],
      [[{ attribute_key: 'status', filter_operator: 'equal_to', values: ['closed'] }], 'payload.0.values'],
      [[{ attribute_key: 'status', filter_operator: 'equal_to', values: [] }], 'payload.0.values'],
      [[{ attribute_key: 'inbox_id', filter_operator: 'equal_to', values: ['1 OR 1=1'] }], 'payload.0.values'],
      [
        [{ attribute_key: 'created_at', filter_operator: 'is_greater_than', values: ['yesterday'] }],
        'payload.0.values',
      ],
      [
        [
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'XOR' },
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] },
        ],
        'payload.0.query_operator',
      ],
      [
        [
          { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] },
          { attribute_key: 'constructor', filter_operator: 'equal_to', values: ['x'] },
        ],
        'payload.1.attribute_key',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await api.post(`${account.path}/conversations/filter`, { payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body.details[0].field).toBe(field);
      expect(res.body.error).toContain(field);
    }
    for (const body of [{}, { payload: [] }, { payload: 'status' }, { payload: [{ attribute_key: 'status' }] }]) {
      expect((await api.post(`${account.path}/conversations/filter`, body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('needs a token and stays within the account', async () => {
    const payload = [{ attribute_key: 'status', filter_operator: 'is_present' }];
    expect(
      (await call(t.app, { method: 'POST', url: `${account.path}/conversations/filter`, body: { payload } })).status,
    ).toBe(401);
    expect(
      (await client(t.app, other.admin.token).post(`${account.path}/conversations/filter`, { payload })).status,
    ).toBe(404);
    const own = await client(t.app, other.admin.token).post(`${other.path}/conversations/filter`, { payload });
    expect(own.body.payload).toHaveLength(1);
  });
});
