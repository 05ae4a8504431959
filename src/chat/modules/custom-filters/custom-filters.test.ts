import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { MAX_FILTERS_PER_USER } from './custom-filters.service.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let colleague: TestUser;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Agent');
  colleague = await newAgent(t, account, 'Colleague');
});
afterAll(async () => {
  await t.close();
});

const path = (a: TestAccount, id?: number | string) => `${a.path}/custom_filters${id === undefined ? '' : `/${id}`}`;
const rows = () => t.db.selectFrom('custom_filters').selectAll().orderBy('id').execute();
const crit = (attribute_key: string, filter_operator: string, values: unknown[] = [], query_operator?: string) => ({
  attribute_key,
  filter_operator,
  values,
  ...(query_operator ? { query_operator } : {}),
});
const openConversations = { payload: [crit('status', 'equal_to', ['open'])] };
const vipContacts = { payload: [crit('labels', 'equal_to', ['vip'])] };

async function save(a: TestAccount, token: string, body: Record<string, unknown>) {
  const res = await client(t.app, token).post(path(a), body);
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; name: string; filter_type: string; query: unknown };
}

describe('{A}/custom_filters', () => {
  it("saves, lists, shows, updates and deletes a user's own filters in Chatwoot's shape", async () => {
    const api = client(t.app, agent.token);
    const created = await api.post(path(account), {
      name: ' Open ones ',
      filter_type: 'conversation',
      query: {
        payload: [
          // What Chatwoot's dashboard keeps beside a criterion is kept; anything else is dropped.
          { ...crit('status', 'equal_to', ['open'], 'and'), attribute_model: 'standard', injected: 'dropped' },
          { ...crit('assignee_id', 'is_present'), custom_attribute_type: '' },
        ],
        page: 2,
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Open ones',
      filter_type: 'conversation',
      query: {
        payload: [
          { ...crit('status', 'equal_to', ['open'], 'and'), attribute_model: 'standard' },
          // "" in an optional field reads as not given (decisions/0016).
          crit('assignee_id', 'is_present'),
        ],
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const id = created.body.id;
    // Rails clients wrap the body in the resource key.
    const contactFilter = await api.post(path(account), {
      custom_filter: { name: 'VIPs', filter_type: 'contact', query: vipContacts },
    });
    expect(contactFilter.status, contactFilter.text).toBe(200);
    expect(contactFilter.body).toMatchObject({ name: 'VIPs', filter_type: 'contact', query: vipContacts });

    // Without filter_type the list is of conversation filters, as in Chatwoot.
    expect((await api.get(path(account))).body).toEqual([created.body]);
    expect((await api.get(`${path(account)}?filter_type=conversation`)).body).toEqual([created.body]);
    expect((await api.get(`${path(account)}?filter_type=contact`)).body).toEqual([contactFilter.body]);
    expect((await api.get(`${path(account)}?filter_type=report`)).status).toBe(422);
    expect((await api.get(path(account, id))).body).toEqual(created.body);
    expect((await api.get(path(account, contactFilter.body.id))).body).toEqual(contactFilter.body);

    const renamed = await api.patch(path(account, id), { name: 'Open' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Open', query: created.body.query });
    const requeried = await api.patch(path(account, id), { query: openConversations });
    expect(requeried.status, requeried.text).toBe(200);
    expect(requeried.body).toMatchObject({ name: 'Open', filter_type: 'conversation', query: openConversations });
    // A new type with a query that fits it.
    const retyped = await api.patch(path(account, id), { filter_type: 'contact', query: vipContacts });
    expect(retyped.status, retyped.text).toBe(200);
    expect(retyped.body).toMatchObject({ filter_type: 'contact', query: vipContacts });

    for (const target of [id, contactFilter.body.id]) {
      const deleted = await api.delete(path(account, target));
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({});
    }
    expect((await api.get(path(account, id))).status).toBe(404);
    expect((await api.delete(path(account, id))).status).toBe(404);
    expect((await api.get(`${path(account)}?filter_type=contact`)).body).toEqual([]);
  });

  it("keeps a user's filters to that user: another user, administrators included, gets 404", async () => {
    const mine = await save(account, agent.token, {
      name: 'Mine',
      filter_type: 'conversation',
      query: openConversations,
    });
    const before = await rows();
    for (const token of [colleague.token, account.admin.token]) {
      const api = client(t.app, token);
      expect((await api.get(path(account))).body).toEqual([]);
      expect((await api.get(path(account, mine.id))).status).toBe(404);
      expect((await api.patch(path(account, mine.id), { name: 'Taken' })).status).toBe(404);
      const deleted = await api.delete(path(account, mine.id));
      expect(deleted.status).toBe(404);
      expect(deleted.body).toMatchObject({ error: expect.any(String), code: 'not_found' });
    }
    expect(await rows()).toEqual(before);
    // The same user in another account sees none of this account's filters.
    const both = await newAgent(t, other, 'Both');
    await client(t.app, t.platformToken).post(`/platform/api/v1/accounts/${account.id}/account_users`, {
      user_id: both.id,
      role: 'agent',
    });
    const inAccount = await save(account, both.token, {
      name: 'Here',
      filter_type: 'conversation',
      query: openConversations,
    });
    const inOther = await client(t.app, both.token).get(path(other));
    expect(inOther.body).toEqual([]);
    expect((await client(t.app, both.token).get(path(other, inAccount.id))).status).toBe(404);
    for (const [token, id] of [
      [agent.token, mine.id],
      [both.token, inAccount.id],
    ] as const) {
      expect((await client(t.app, token).delete(path(account, id))).status).toBe(200);
    }
  });

  it('takes the type from filter_type, else type, else ?filter_type=, else conversation (the n8n node)', async () => {
    const api = client(t.app, colleague.token);
    const made = async (url: string, body: Record<string, unknown>) => {
      const res = await api.post(url, body);
      expect(res.status, res.text).toBe(200);
      return res.body as { id: number; filter_type: string };
    };
    // Chatwoot's n8n node: `type` in the body, `filter_type` in the query.
    const n8n = await made(`${path(account)}?filter_type=contact`, {
      name: 'n8n',
      type: 'contact',
      query: vipContacts,
    });
    expect(n8n.filter_type).toBe('contact');
    expect((await made(`${path(account)}?filter_type=contact`, { name: 'q', query: vipContacts })).filter_type).toBe(
      'contact',
    );
    const body = { name: 'Both', filter_type: 'conversation', type: 'contact', query: openConversations };
    expect((await made(`${path(account)}?filter_type=contact`, body)).filter_type).toBe('conversation');
    expect((await made(path(account), { name: 'Bare', query: openConversations })).filter_type).toBe('conversation');
    // Show, update (type read the same way) and delete work on it.
    expect((await api.get(path(account, n8n.id))).body).toMatchObject({ id: n8n.id, filter_type: 'contact' });
    const retyped = await api.patch(`${path(account, n8n.id)}?filter_type=conversation`, { query: openConversations });
    expect(retyped.status, retyped.text).toBe(200);
    expect(retyped.body.filter_type).toBe('conversation');
    expect((await api.patch(path(account, n8n.id), { type: 'contact', query: vipContacts })).body.filter_type).toBe(
      'contact',
    );
    expect((await api.delete(path(account, n8n.id))).status).toBe(200);
    // A type the filter does not have is refused wherever it comes from.
    expect((await api.post(`${path(account)}?filter_type=report`, { name: 'x', query: vipContacts })).status).toBe(422);
  });

  it("answers 404 to another account's ids and to non-members, 401 without a token", async () => {
    const theirs = await save(other, other.admin.token, { name: 'Theirs', filter_type: 'contact', query: vipContacts });
    const before = await rows();
    const api = client(t.app, account.admin.token);
    expect((await api.get(path(account, theirs.id))).status).toBe(404);
    expect((await api.patch(path(account, theirs.id), { name: 'x' })).status).toBe(404);
    expect((await api.delete(path(account, theirs.id))).status).toBe(404);
    expect((await api.get(path(other))).status).toBe(404);
    expect((await api.post(path(other), { name: 'x', filter_type: 'contact', query: vipContacts })).status).toBe(404);
    expect((await call(t.app, { url: path(account) })).status).toBe(401);
    expect(await rows()).toEqual(before);
  });

  it('refuses a query the filter of its type would refuse (422 naming the criterion) and stores nothing', async () => {
    const api = client(t.app, agent.token);
    const kept = await save(account, agent.token, {
      name: 'Kept',
      filter_type: 'conversation',
      query: openConversations,
    });
    const before = await rows();
    const conversation = (payload: unknown[]) => ({ name: 'Bad', filter_type: 'conversation', query: { payload } });
    const contact = (payload: unknown[]) => ({ name: 'Bad', filter_type: 'contact', query: { payload } });
    const cases: [Record<string, unknown>, string][] = [
      [conversation([crit('no_such_key', 'equal_to', ['x'])]), 'query.payload.0.attribute_key'],
      [
        conversation([crit('status', 'equal_to', ['open'], 'and'), crit('email', 'equal_to', ['a@b.c'])]),
        'query.payload.1.attribute_key',
      ],
      [conversation([crit('status', 'matches', ['open'])]), 'query.payload.0.filter_operator'],
      [conversation([crit('status', 'contains', ['open'])]), 'query.payload.0.filter_operator'],
      [conversation([crit('status', 'equal_to', ['closed'])]), 'query.payload.0.values'],
      [conversation([crit('status', 'equal_to', [])]), 'query.payload.0.values'],
      [
        conversation([crit('status', 'equal_to', ['open'], 'xor'), crit('priority', 'is_present')]),
        'query.payload.0.query_operator',
      ],
      [contact([crit('status', 'equal_to', ['open'])]), 'query.payload.0.attribute_key'],
      [contact([crit('blocked', 'equal_to', ['perhaps'])]), 'query.payload.0.values'],
      [contact([crit('created_at', 'is_greater_than', ['yesterday'])]), 'query.payload.0.values'],
      [conversation([]), 'query.payload'],
      [{ name: 'Bad', filter_type: 'report', query: openConversations }, 'filter_type'],
      [{ name: '   ', filter_type: 'conversation', query: openConversations }, 'name'],
      [{ name: 'Bad', filter_type: 'conversation', query: 'status=open' }, 'query'],
      [{ name: 'Bad', filter_type: 'conversation' }, 'query'],
      [{ filter_type: 'conversation', query: openConversations }, 'name'],
      [{ name: 'Bad', type: 'report', query: openConversations }, 'type'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(path(account), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      expect(res.body.details?.[0]?.field, JSON.stringify(body)).toBe(field);
    }
    // The same on update, where a new type must also fit the saved query.
    for (const [body, field] of [
      [{ query: { payload: [crit('phone_number', 'equal_to', ['1'])] } }, 'query.payload.0.attribute_key'],
      [{ filter_type: 'contact' }, 'query.payload.0.attribute_key'],
      [{ filter_type: 'report' }, 'filter_type'],
      [{ name: ' ' }, 'name'],
    ] as const) {
      const res = await api.patch(path(account, kept.id), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.details?.[0]?.field).toBe(field);
    }
    expect(await rows()).toEqual(before);
    await api.delete(path(account, kept.id));
  });

  it('accepts a defined custom attribute of the right model in a saved query, and nothing else', async () => {
    const admin = client(t.app, account.admin.token);
    const definition = await admin.post(`${account.path}/custom_attribute_definitions`, {
      attribute_display_name: 'Tier',
      attribute_display_type: 'list',
      attribute_key: 'tier',
      attribute_model: 'contact_attribute',
      attribute_values: ['gold', 'silver'],
    });
    expect(definition.status, definition.text).toBe(200);
    const query = { payload: [{ ...crit('tier', 'equal_to', ['gold']), attribute_model: 'customer_attributes' }] };
    const saved = await save(account, agent.token, { name: 'Gold', filter_type: 'contact', query });
    expect(saved.query).toEqual(query);
    const before = await rows();
    const api = client(t.app, agent.token);
    for (const body of [
      { name: 'Wrong model', filter_type: 'conversation', query },
      { name: 'Wrong operator', filter_type: 'contact', query: { payload: [crit('tier', 'contains', ['go'])] } },
      { name: 'Undefined', filter_type: 'contact', query: { payload: [crit('tier_two', 'equal_to', ['gold'])] } },
    ]) {
      expect((await api.post(path(account), body)).status, body.name).toBe(422);
    }
    expect(await rows()).toEqual(before);
    // A saved filter outlives the definition; it can still be renamed.
    await admin.delete(`${account.path}/custom_attribute_definitions/${definition.body.id}`);
    expect((await api.get(path(account, saved.id))).body).toEqual(saved);
    expect((await api.patch(path(account, saved.id), { name: 'Gold (old)' })).status).toBe(200);
    await api.delete(path(account, saved.id));
  });

  it(`allows ${MAX_FILTERS_PER_USER} filters per user and account (422 beyond), as Chatwoot`, async () => {
    const user = await newAgent(t, account, 'Collector');
    const api = client(t.app, user.token);
    const ids: number[] = [];
    for (let i = 0; i < MAX_FILTERS_PER_USER; i++) {
      ids.push((await save(account, user.token, { name: `F${i}`, filter_type: 'contact', query: vipContacts })).id);
    }
    const before = await rows();
    const refused = await api.post(path(account), {
      name: 'One more',
      filter_type: 'conversation',
      query: openConversations,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'limit_reached', error: expect.stringContaining('50') });
    expect(await rows()).toEqual(before);
    // Another user is not affected; freeing one makes room again.
    await save(account, colleague.token, { name: 'Colleague', filter_type: 'conversation', query: openConversations });
    await api.delete(path(account, ids[0]));
    await save(account, user.token, { name: 'Now it fits', filter_type: 'conversation', query: openConversations });
  });

  it('refuses agent bots (403)', async () => {
    const bot = await client(t.app, account.admin.token).post(`${account.path}/agent_bots`, {
      name: 'Bot',
      outgoing_url: 'https://bots.example.test/x',
    });
    expect(bot.status, bot.text).toBe(200);
    const token = bot.body.access_token as string;
    expect(token).toEqual(expect.any(String));
    expect((await client(t.app, token).get(path(account))).status).toBe(403);
  });
});
