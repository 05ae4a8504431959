import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newAccount,
  newAgent,
  newContact,
  newConversation,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { countingQueries } from '../../../../test/helpers/query-counter.js';
import type { ChatDeps } from '../../context.js';
import { CustomAttributesService } from './custom-attributes.service.js';

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

const path = (a: TestAccount, id?: number | string) =>
  `${a.path}/custom_attribute_definitions${id === undefined ? '' : `/${id}`}`;
const rows = () => t.db.selectFrom('custom_attribute_definitions').selectAll().orderBy('id').execute();

interface Definition {
  id: number;
  attribute_key: string;
  attribute_model: string;
  attribute_display_type: string;
  attribute_values: string[];
  [field: string]: unknown;
}

async function define(a: TestAccount, body: Record<string, unknown>): Promise<Definition> {
  const res = await client(t.app, a.admin.token).post(path(a), {
    attribute_display_name: String(body.attribute_key),
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const crit = (attribute_key: string, filter_operator: string, values: unknown[] = [], query_operator?: string) => ({
  attribute_key,
  filter_operator,
  values,
  ...(query_operator ? { query_operator } : {}),
});

describe('{A}/custom_attribute_definitions', () => {
  it("creates, shows, lists, updates and deletes in Chatwoot's shape", async () => {
    const api = client(t.app, account.admin.token);
    const created = await api.post(path(account), {
      attribute_display_name: 'Plan',
      attribute_display_type: 'list',
      attribute_key: 'crud_plan',
      attribute_model: 'contact_attribute',
      attribute_description: 'Subscription plan',
      attribute_values: ['Free', ' Pro ', 'pro', ''],
      regex_pattern: '^[A-Za-z]+$',
      regex_cue: 'Letters only',
      default_value: 'Free',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      attribute_display_name: 'Plan',
      attribute_display_type: 'list',
      attribute_description: 'Subscription plan',
      attribute_key: 'crud_plan',
      attribute_model: 'contact_attribute',
      // Trimmed, blanks and repeats (regardless of case) dropped.
      attribute_values: ['Free', 'Pro'],
      regex_pattern: '^[A-Za-z]+$',
      regex_cue: 'Letters only',
      default_value: 'Free',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const id = created.body.id;

    // Chatwoot's numbers for the enums, as numbers or as text; a body wrapped in the resource key.
    const numeric = await api.post(path(account), {
      custom_attribute_definition: {
        attribute_display_name: 'Order total',
        attribute_display_type: 2,
        attribute_key: 'crud_total',
        attribute_model: '0',
      },
    });
    expect(numeric.status, numeric.text).toBe(200);
    expect(numeric.body).toMatchObject({
      attribute_display_type: 'currency',
      attribute_model: 'conversation_attribute',
      attribute_values: [],
      attribute_description: null,
      regex_pattern: null,
      default_value: null,
    });

    expect((await api.get(path(account, id))).body).toEqual(created.body);
    const all = await api.get(path(account));
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ data: [created.body, numeric.body] });
    for (const model of ['contact_attribute', '1']) {
      expect((await api.get(`${path(account)}?attribute_model=${model}`)).body).toEqual({ data: [created.body] });
    }
    for (const model of ['conversation_attribute', '0']) {
      expect((await api.get(`${path(account)}?attribute_model=${model}`)).body).toEqual({ data: [numeric.body] });
    }
    expect((await api.get(`${path(account)}?attribute_model=2`)).status).toBe(422);

    const patched = await api.patch(path(account, id), {
      attribute_display_name: 'Subscription',
      attribute_description: null,
      attribute_values: ['Free', 'Pro', 'Enterprise'],
      // Sending the unchangeable fields as they are is fine (clients resend the whole record).
      attribute_key: 'crud_plan',
      attribute_model: 1,
      attribute_display_type: 'list',
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      attribute_display_name: 'Subscription',
      attribute_description: null,
      attribute_values: ['Free', 'Pro', 'Enterprise'],
      attribute_key: 'crud_plan',
      default_value: 'Free',
    });

    for (const target of [id, numeric.body.id]) {
      const deleted = await api.delete(path(account, target));
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({});
    }
    expect((await api.get(path(account, id))).status).toBe(404);
    expect((await api.delete(path(account, id))).status).toBe(404);
    expect((await api.get(path(account))).body).toEqual({ data: [] });
  });

  it('lets agents read but not write (403), changing nothing', async () => {
    const existing = await define(account, {
      attribute_key: 'agent_visible',
      attribute_display_type: 'text',
      attribute_model: 'contact_attribute',
    });
    const before = await rows();
    const api = client(t.app, agent.token);
    expect((await api.get(path(account))).body.data).toEqual([existing]);
    expect((await api.get(path(account, existing.id))).body).toEqual(existing);
    const body = {
      attribute_display_name: 'X',
      attribute_display_type: 'text',
      attribute_key: 'by_agent',
      attribute_model: 'contact_attribute',
    };
    for (const res of [
      await api.post(path(account), body),
      await api.patch(path(account, existing.id), { attribute_display_name: 'Mine now' }),
      await api.delete(path(account, existing.id)),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ error: expect.any(String), code: 'forbidden' });
    }
    expect(await rows()).toEqual(before);
    await client(t.app, account.admin.token).delete(path(account, existing.id));
  });

  it('refuses bad keys, types, values, regexes and defaults with 422, storing nothing', async () => {
    const api = client(t.app, account.admin.token);
    const list = await define(account, {
      attribute_key: 'bad_input_list',
      attribute_display_type: 'list',
      attribute_model: 'conversation_attribute',
      attribute_values: ['a', 'b'],
    });
    const before = await rows();
    const base = {
      attribute_display_name: 'Name',
      attribute_display_type: 'text',
      attribute_key: 'fine_key',
      attribute_model: 'contact_attribute',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ attribute_key: 'Order Id' }, 'attribute_key'],
      [{ attribute_key: 'OrderId' }, 'attribute_key'],
      [{ attribute_key: '_private' }, 'attribute_key'],
      [{ attribute_key: 'a-b' }, 'attribute_key'],
      [{ attribute_key: 'x'.repeat(65) }, 'attribute_key'],
      // Standard attributes of the model (and keys its filter already has) are not available.
      [{ attribute_key: 'email' }, 'attribute_key'],
      [{ attribute_key: 'company' }, 'attribute_key'],
      [{ attribute_key: 'status', attribute_model: 'conversation_attribute' }, 'attribute_key'],
      [{ attribute_display_name: '   ' }, 'attribute_display_name'],
      [{ attribute_display_type: 'color' }, 'attribute_display_type'],
      [{ attribute_display_type: 8 }, 'attribute_display_type'],
      [{ attribute_model: 2 }, 'attribute_model'],
      [{ attribute_model: 'user_attribute' }, 'attribute_model'],
      [{ attribute_display_type: 'list' }, 'attribute_values'],
      [{ attribute_display_type: 'list', attribute_values: [] }, 'attribute_values'],
      [{ attribute_display_type: 'list', attribute_values: [' ', ''] }, 'attribute_values'],
      [{ attribute_display_type: 'list', attribute_values: ['a'], default_value: 'b' }, 'default_value'],
      [{ attribute_display_type: 'number', default_value: 'abc' }, 'default_value'],
      [{ attribute_display_type: 'checkbox', default_value: 'maybe' }, 'default_value'],
      [{ attribute_display_type: 'date', default_value: 'tomorrow' }, 'default_value'],
      [{ regex_pattern: '([a-z' }, 'regex_pattern'],
      [{ attribute_values: 'not a list of strings', attribute_display_type: 'list', default_value: [1] }, ''],
    ];
    for (const [change, field] of cases) {
      const res = await api.post(path(account), { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      if (field) expect(res.body.details?.[0]?.field, JSON.stringify(change)).toBe(field);
    }
    for (const required of ['attribute_display_name', 'attribute_display_type', 'attribute_key', 'attribute_model']) {
      const body: Record<string, unknown> = { ...base };
      delete body[required];
      expect((await api.post(path(account), body)).status, required).toBe(422);
    }
    // Key, model and display type never change; a list keeps at least one value.
    for (const [change, field] of [
      [{ attribute_key: 'renamed' }, 'attribute_key'],
      [{ attribute_model: 'contact_attribute' }, 'attribute_model'],
      [{ attribute_display_type: 'text' }, 'attribute_display_type'],
      [{ attribute_values: [] }, 'attribute_values'],
      [{ attribute_values: null }, 'attribute_values'],
      [{ default_value: 'c' }, 'default_value'],
      [{ attribute_display_name: '   ' }, 'attribute_display_name'],
      [{ attribute_display_name: 12 }, ''],
    ] as const) {
      const res = await api.patch(path(account, list.id), change);
      expect(res.status, JSON.stringify(change)).toBe(422);
      if (field) expect(res.body.details?.[0]?.field).toBe(field);
    }
    expect(await rows()).toEqual(before);
    await api.delete(path(account, list.id));
  });

  it('keeps keys unique per account and model (409), free across models and accounts', async () => {
    const api = client(t.app, account.admin.token);
    const first = await define(account, {
      attribute_key: 'dup_key',
      attribute_display_type: 'text',
      attribute_model: 'contact_attribute',
    });
    const before = await rows();
    const dup = await api.post(path(account), {
      attribute_display_name: 'Again',
      attribute_display_type: 'number',
      attribute_key: ' dup_key ',
      attribute_model: 1,
    });
    expect(dup.status, dup.text).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', details: [{ field: 'attribute_key' }] });
    expect(await rows()).toEqual(before);
    const otherModel = await define(account, {
      attribute_key: 'dup_key',
      attribute_display_type: 'text',
      attribute_model: 'conversation_attribute',
    });
    const otherAccount = await define(other, {
      attribute_key: 'dup_key',
      attribute_display_type: 'text',
      attribute_model: 'contact_attribute',
    });
    await api.delete(path(account, first.id));
    await api.delete(path(account, otherModel.id));
    await client(t.app, other.admin.token).delete(path(other, otherAccount.id));
  });

  it("answers 404 to another account's ids and to non-members, 401 without a token", async () => {
    const theirs = await define(other, {
      attribute_key: 'theirs',
      attribute_display_type: 'text',
      attribute_model: 'contact_attribute',
    });
    const before = await rows();
    const api = client(t.app, account.admin.token);
    expect((await api.get(path(account, theirs.id))).status).toBe(404);
    expect((await api.patch(path(account, theirs.id), { attribute_display_name: 'Taken' })).status).toBe(404);
    expect((await api.delete(path(account, theirs.id))).status).toBe(404);
    expect((await api.get(path(other))).status).toBe(404);
    expect((await api.get(path(other, theirs.id))).status).toBe(404);
    expect((await call(t.app, { url: path(account) })).status).toBe(401);
    expect(await rows()).toEqual(before);
    await client(t.app, other.admin.token).delete(path(other, theirs.id));
  });
});

describe('filtering contacts and conversations by a defined custom attribute', () => {
  /** Accounts of their own, so that exact results are not disturbed by the other tests' records. */
  let crm: TestAccount;
  let desk: TestAccount;
  let contacts: Record<string, number>;
  let conversations: Record<string, number>;
  let definitions: Record<string, Definition>;

  const filterContacts = (payload: unknown[]) =>
    client(t.app, crm.admin.token).post(`${crm.path}/contacts/filter`, { payload });
  const filterConversations = (payload: unknown[]) =>
    client(t.app, desk.admin.token).post(`${desk.path}/conversations/filter`, { payload });
  const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);
  async function contactIds(payload: unknown[]) {
    const res = await filterContacts(payload);
    expect(res.status, res.text).toBe(200);
    return sorted(...(res.body.payload as { id: number }[]).map((c) => c.id));
  }
  async function conversationIds(payload: unknown[]) {
    const res = await filterConversations(payload);
    expect(res.status, res.text).toBe(200);
    return sorted(...(res.body.payload as { id: number }[]).map((c) => c.id));
  }

  beforeAll(async () => {
    crm = await newAccount(t, 'CRM');
    desk = await newAccount(t, 'Desk');
    const contact = (key: string) => ({ attribute_key: key, attribute_model: 'contact_attribute' });
    const conversation = (key: string) => ({ attribute_key: key, attribute_model: 'conversation_attribute' });
    definitions = {
      plan: await define(crm, {
        ...contact('plan'),
        attribute_display_type: 'list',
        attribute_values: ['free', 'pro', 'enterprise'],
      }),
      seats: await define(crm, { ...contact('seats'), attribute_display_type: 'number' }),
      renewal: await define(crm, { ...contact('renewal'), attribute_display_type: 'date' }),
      beta: await define(crm, { ...contact('beta'), attribute_display_type: 'checkbox' }),
      nickname: await define(crm, { ...contact('nickname'), attribute_display_type: 'text' }),
      orderTotal: await define(desk, { ...conversation('order_total'), attribute_display_type: 'currency' }),
      orderRef: await define(desk, { ...conversation('order_ref'), attribute_display_type: 'text' }),
      urgent: await define(desk, { ...conversation('urgent'), attribute_display_type: 'checkbox' }),
    };
    // The same key in another account must not make it filterable here.
    await define(desk, { ...contact('other_only'), attribute_display_type: 'text' });
    const make = async (name: string, custom_attributes: Record<string, unknown>) =>
      (await newContact(t, crm, { name, custom_attributes })).contact.id;
    contacts = {
      ana: await make('Ana', { plan: 'pro', seats: 12, renewal: '2030-01-15', beta: true, nickname: 'Annie' }),
      // Numbers and booleans as text, a date with a time, a list value in another case.
      bia: await make('Bia', { plan: 'Enterprise', seats: '150', renewal: '2024-06-01T10:00:00Z', beta: 'false' }),
      caio: await make('Caio', { plan: 'free', seats: 'lots', renewal: 'soon', beta: 'yes', other_only: 'x' }),
      dani: await make('Dani', {}),
    };
    const conv = async (attributes: Record<string, unknown> | null) => {
      const c = await newConversation(t, desk);
      if (attributes) {
        const res = await client(t.app, desk.admin.token).post(`${desk.path}/conversations/${c.id}/custom_attributes`, {
          custom_attributes: attributes,
        });
        expect(res.status, res.text).toBe(200);
      }
      return c.id;
    };
    conversations = {
      big: await conv({ order_total: 1999.9, order_ref: 'ORD-100', urgent: true }),
      small: await conv({ order_total: '49.5', order_ref: 'ord-200' }),
      none: await conv(null),
    };
  });

  it('compares a contact attribute with the operators of its display type, exactly', async () => {
    const { ana, bia, caio, dani } = contacts;
    expect(await contactIds([crit('plan', 'equal_to', ['PRO', 'enterprise'])])).toEqual(sorted(ana, bia));
    // The negative operators include contacts without the value.
    expect(await contactIds([crit('plan', 'not_equal_to', ['free'])])).toEqual(sorted(ana, bia, dani));
    expect(await contactIds([crit('plan', 'is_present')])).toEqual(sorted(ana, bia, caio));
    expect(await contactIds([crit('plan', 'is_not_present')])).toEqual([dani]);
    // Numbers: JSON numbers and decimal text compare numerically; anything else never matches.
    expect(await contactIds([crit('seats', 'is_greater_than', [100])])).toEqual([bia]);
    expect(await contactIds([crit('seats', 'is_less_than', ['100'])])).toEqual([ana]);
    expect(await contactIds([crit('seats', 'equal_to', [12, 150])])).toEqual(sorted(ana, bia));
    expect(await contactIds([crit('seats', 'not_equal_to', [12])])).toEqual(sorted(bia, caio, dani));
    // Dates compare by day; a value that is not a date never matches.
    expect(await contactIds([crit('renewal', 'is_greater_than', ['2025-01-01'])])).toEqual([ana]);
    expect(await contactIds([crit('renewal', 'is_less_than', ['2025-01-01'])])).toEqual([bia]);
    expect(await contactIds([crit('renewal', 'equal_to', ['2024-06-01'])])).toEqual([bia]);
    expect(await contactIds([crit('renewal', 'days_before', [30])])).toEqual([bia]);
    // Checkboxes: true/false as JSON or text; other text is neither.
    expect(await contactIds([crit('beta', 'equal_to', [true])])).toEqual([ana]);
    expect(await contactIds([crit('beta', 'equal_to', ['false'])])).toEqual([bia]);
    expect(await contactIds([crit('beta', 'not_equal_to', [true])])).toEqual(sorted(bia, caio, dani));
    // Text: case-insensitive, substrings matched literally.
    expect(await contactIds([crit('nickname', 'contains', ['NNI'])])).toEqual([ana]);
    expect(await contactIds([crit('nickname', 'starts_with', ['an'])])).toEqual([ana]);
    expect(await contactIds([crit('nickname', 'does_not_contain', ['nn'])])).toEqual(sorted(bia, caio, dani));
    expect(await contactIds([crit('nickname', 'contains', ['%'])])).toEqual([]);
    // With the standard attributes, chained by AND / OR.
    expect(
      await contactIds([crit('plan', 'equal_to', ['pro'], 'OR'), crit('name', 'equal_to', ['caio'], 'AND')]),
    ).toEqual(sorted(ana, caio));
    expect(await contactIds([crit('name', 'starts_with', ['b'], 'AND'), crit('seats', 'is_present')])).toEqual([bia]);
  });

  it('compares a conversation attribute, exactly', async () => {
    const { big, small, none } = conversations;
    expect(await conversationIds([crit('order_total', 'is_greater_than', [100])])).toEqual([big]);
    expect(await conversationIds([crit('order_total', 'is_less_than', ['100.5'])])).toEqual([small]);
    expect(await conversationIds([crit('order_total', 'equal_to', ['49.50'])])).toEqual([small]);
    expect(await conversationIds([crit('order_ref', 'starts_with', ['ORD-'])])).toEqual(sorted(big, small));
    expect(await conversationIds([crit('order_ref', 'equal_to', ['ord-100'])])).toEqual([big]);
    expect(await conversationIds([crit('urgent', 'equal_to', ['true'])])).toEqual([big]);
    expect(await conversationIds([crit('urgent', 'not_equal_to', [true])])).toEqual(sorted(small, none));
    expect(await conversationIds([crit('order_ref', 'is_not_present')])).toEqual([none]);
    expect(
      await conversationIds([crit('order_total', 'is_present', [], 'AND'), crit('status', 'equal_to', ['open'])]),
    ).toEqual(sorted(big, small));
  });

  it('answers 422 for an undefined key, a key of the other model or account, and operators or values that do not fit', async () => {
    const cases: [(payload: unknown[]) => Promise<{ status: number; body: any }>, unknown[], string][] = [
      [filterContacts, [crit('undefined_key', 'equal_to', ['x'])], 'payload.0.attribute_key'],
      [filterContacts, [crit('order_ref', 'equal_to', ['x'])], 'payload.0.attribute_key'],
      [filterContacts, [crit('other_only', 'equal_to', ['x'])], 'payload.0.attribute_key'],
      [filterConversations, [crit('plan', 'equal_to', ['pro'])], 'payload.0.attribute_key'],
      [
        filterConversations,
        [crit('status', 'equal_to', ['open'], 'AND'), crit('nope', 'is_present')],
        'payload.1.attribute_key',
      ],
      [filterContacts, [crit('seats', 'contains', ['1'])], 'payload.0.filter_operator'],
      [filterContacts, [crit('plan', 'starts_with', ['p'])], 'payload.0.filter_operator'],
      [filterContacts, [crit('beta', 'is_greater_than', [1])], 'payload.0.filter_operator'],
      [filterContacts, [crit('seats', 'is_greater_than', ['many'])], 'payload.0.values'],
      [filterContacts, [crit('renewal', 'is_less_than', ['next week'])], 'payload.0.values'],
      [filterContacts, [crit('beta', 'equal_to', ['maybe'])], 'payload.0.values'],
      [filterConversations, [crit('order_total', 'equal_to', [])], 'payload.0.values'],
    ];
    for (const [send, payload, field] of cases) {
      const res = await send(payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toMatchObject({ code: expect.any(String), details: [{ field }] });
    }
  });

  it('reads the definitions once per filter request, whatever the number of criteria', async () => {
    const { db: counting, counter } = countingQueries(t.db);
    const deps = { db: counting, dialect: t.dialect, config: t.config } as unknown as ChatDeps;
    const svc = new CustomAttributesService(deps);
    const criteria = [
      crit('plan', 'equal_to', ['pro']),
      crit('seats', 'is_greater_than', [1]),
      crit('plan', 'not_equal_to', ['free']),
      crit('renewal', 'is_present'),
      crit('name', 'equal_to', ['x']),
      crit('unknown_key', 'equal_to', ['x']),
    ];
    const extra = await svc.criteriaFor(crm.id, 'contacts', criteria);
    expect(counter.queries).toBe(1);
    expect(criteria.map((c, i) => extra?.(c, `payload.${i}`) !== undefined)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    // Only standard keys: no query at all.
    expect(await svc.criteriaFor(crm.id, 'contacts', [crit('name', 'equal_to', ['x'])])).toBeUndefined();
    expect(counter.queries).toBe(1);
  });

  it("deleting a definition leaves contacts' and conversations' values as they are", async () => {
    const crmApi = client(t.app, crm.admin.token);
    const deskApi = client(t.app, desk.admin.token);
    expect((await crmApi.delete(path(crm, definitions.seats.id))).status).toBe(200);
    expect((await deskApi.delete(path(desk, definitions.orderRef.id))).status).toBe(200);
    const contact = await crmApi.get(`${crm.path}/contacts/${contacts.bia}`);
    expect(contact.body.payload.custom_attributes).toEqual({
      plan: 'Enterprise',
      seats: '150',
      renewal: '2024-06-01T10:00:00Z',
      beta: 'false',
    });
    const conversation = await deskApi.get(`${desk.path}/conversations/${conversations.big}`);
    expect(conversation.body.custom_attributes).toEqual({ order_total: 1999.9, order_ref: 'ORD-100', urgent: true });
    // The key is no longer filterable; the remaining definitions still are.
    expect((await filterContacts([crit('seats', 'is_present')])).status).toBe(422);
    expect((await filterConversations([crit('order_ref', 'is_present')])).status).toBe(422);
    expect(await contactIds([crit('plan', 'equal_to', ['free'])])).toEqual([contacts.caio]);
    // Defining it again makes the stored values filterable again.
    await define(crm, {
      attribute_key: 'seats',
      attribute_model: 'contact_attribute',
      attribute_display_type: 'number',
    });
    expect(await contactIds([crit('seats', 'is_greater_than', [100])])).toEqual([contacts.bia]);
  });
});
