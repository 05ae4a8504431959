import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newInbox,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  const api = client(t.app, account.admin.token);
  const make = async (name: string, fields: Record<string, unknown>) =>
    (await newContact(t, account, { name, ...fields })).contact.id;
  ids = {
    maria: await make('Maria Silva', {
      phone_number: '+5511988887777',
      email: 'maria@example.test',
      additional_attributes: { city: 'São Paulo', company: 'Acme' },
    }),
    joao: await make('João', {
      phone_number: '+551188887777',
      identifier: 'joao-1',
      additional_attributes: { city: 'Rio' },
    }),
    ana: await make('ana', { email: 'ANA@Example.test', blocked: true }),
    nobody: await make('', {}),
  };
  await api.post(`${account.path}/contacts/${ids.maria}/labels`, { labels: ['vip'] });
  await api.post(`${account.path}/contacts/${ids.ana}/labels`, { labels: ['lead'] });
});
afterAll(async () => {
  await t.close();
});

const filter = (payload: unknown, query = '', token = account.admin.token) =>
  call(t.app, { method: 'POST', url: `${account.path}/contacts/filter${query}`, token, body: { payload } });
const idsOf = (res: { body: { payload: { id: number }[] } }) => res.body.payload.map((c) => c.id).sort((a, b) => a - b);
const crit = (
  attribute_key: string,
  filter_operator: string,
  values: unknown[] = [],
  query_operator?: string | null,
) => ({
  attribute_key,
  filter_operator,
  values,
  ...(query_operator !== undefined ? { query_operator } : {}),
});

describe('POST {A}/contacts/filter', () => {
  it('finds a contact by phone number with or without the + (as Evolution API asks), in the list shape', async () => {
    for (const value of ['5511988887777', '+5511988887777']) {
      const res = await filter([crit('phone_number', 'equal_to', [value], null)]);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        meta: { count: 1, current_page: 1 },
        payload: [{ id: ids.maria, name: 'Maria Silva' }],
      });
    }
    // Evolution's OR of the two Brazilian spellings (with and without the ninth digit).
    const either = await filter([
      crit('phone_number', 'equal_to', ['5511988887777'], 'OR'),
      crit('phone_number', 'equal_to', ['551188887777'], null),
    ]);
    expect(idsOf(either)).toEqual([ids.maria, ids.joao].sort((a, b) => a - b));
    expect(idsOf(await filter([crit('phone_number', 'starts_with', ['55119'])]))).toEqual([ids.maria]);
    expect(idsOf(await filter([crit('phone_number', 'contains', ['8888777'])]))).toEqual(
      [ids.maria, ids.joao].sort((a, b) => a - b),
    );
  });

  it('covers the contact attributes: text in any case, additional attributes, labels, blocked, dates, presence', async () => {
    expect(idsOf(await filter([crit('email', 'equal_to', ['ana@EXAMPLE.test'])]))).toEqual([ids.ana]);
    expect(idsOf(await filter([crit('name', 'contains', ['SILVA'])]))).toEqual([ids.maria]);
    expect(idsOf(await filter([crit('identifier', 'equal_to', ['joao-1'])]))).toEqual([ids.joao]);
    expect(idsOf(await filter([crit('city', 'equal_to', ['são paulo'])]))).toEqual([ids.maria]);
    expect(idsOf(await filter([crit('company', 'contains', ['acm'])]))).toEqual([ids.maria]);
    expect(idsOf(await filter([crit('city', 'not_equal_to', ['Rio'])]))).toEqual(
      [ids.maria, ids.ana, ids.nobody].sort((a, b) => a - b),
    );
    expect(idsOf(await filter([crit('labels', 'equal_to', ['VIP'])]))).toEqual([ids.maria]);
    expect(idsOf(await filter([crit('labels', 'is_not_present')]))).toEqual(
      [ids.joao, ids.nobody].sort((a, b) => a - b),
    );
    expect(idsOf(await filter([crit('blocked', 'equal_to', [true])]))).toEqual([ids.ana]);
    expect(idsOf(await filter([crit('blocked', 'not_equal_to', ['true'])]))).toEqual(
      [ids.maria, ids.joao, ids.nobody].sort((a, b) => a - b),
    );
    expect(idsOf(await filter([crit('email', 'is_present')]))).toEqual([ids.maria, ids.ana].sort((a, b) => a - b));
    expect(idsOf(await filter([crit('created_at', 'is_greater_than', ['2020-01-01'])]))).toHaveLength(4);
    expect(idsOf(await filter([crit('last_activity_at', 'is_present')]))).toEqual([]);
    // AND binds tighter than OR.
    const chained = await filter([
      crit('labels', 'equal_to', ['vip'], 'AND'),
      crit('city', 'equal_to', ['Rio'], 'OR'),
      crit('blocked', 'equal_to', [true]),
    ]);
    expect(idsOf(chained)).toEqual([ids.ana]);
  });

  it('pages by 15 (page=0 is the first page)', async () => {
    const page0 = await filter([crit('created_at', 'is_greater_than', ['2020-01-01'])], '?page=0');
    expect(page0.body.meta).toEqual({ count: 4, current_page: 1 });
    const page2 = await filter([crit('created_at', 'is_greater_than', ['2020-01-01'])], '?page=2');
    expect(page2.body).toEqual({ meta: { count: 4, current_page: 2 }, payload: [] });
  });

  it('refuses keys and operators outside the whitelist and bad values with 422; values are bound, not SQL', async () => {
    for (const payload of [
      [],
      [crit('password_hash', 'equal_to', ['x'])],
      [crit('email', 'matches', ['x'])],
      [crit('labels', 'starts_with', ['x'])],
      [crit('blocked', 'contains', ['x'])],
      [crit('blocked', 'equal_to', ['perhaps'])],
      [crit('created_at', 'is_greater_than', ['yesterday'])],
      [crit('email', 'equal_to', [])],
      [crit('email', 'equal_to', ['a'], 'XOR'), crit('name', 'equal_to', ['b'])],
      'not a list',
    ]) {
      const res = await filter(payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), details: expect.any(Array) });
    }
    const injection = await filter([crit('name', 'equal_to', ["x' OR '1'='1"])]);
    expect(injection.status).toBe(200);
    expect(injection.body.payload).toEqual([]);
  });

  it("never returns another account's contacts; 404 on another account; 401 without a token; agents may filter", async () => {
    const other = await newAccount(t, 'Other');
    await newContact(t, other, { name: 'Maria Silva', phone_number: '+5511988887777' });
    expect(idsOf(await filter([crit('phone_number', 'equal_to', ['5511988887777'])]))).toEqual([ids.maria]);
    const res = await call(t.app, {
      method: 'POST',
      url: `${other.path}/contacts/filter`,
      token: account.admin.token,
      body: { payload: [crit('name', 'contains', ['a'])] },
    });
    expect(res.status).toBe(404);
    expect((await call(t.app, { method: 'POST', url: `${account.path}/contacts/filter`, body: {} })).status).toBe(401);
    const agent = await newAgent(t, account);
    expect((await filter([crit('name', 'contains', ['a'])], '', agent.token)).status).toBe(200);
  });
});

describe('GET {A}/contacts/:id/contactable_inboxes', () => {
  it('lists the inboxes a conversation can start in, with the source id to use', async () => {
    const api = client(t.app, account.admin.token);
    const apiInbox = await newInbox(t, account, { type: 'api' }, 'API');
    const freshApi = await newInbox(t, account, { type: 'api' }, 'API 2');
    const widget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://acme.test' }, 'Site');
    const email = await newInbox(t, account, { type: 'email', email: 'help@acme.test' }, 'Mail');
    const sms = await newInbox(t, account, { type: 'sms', phone_number: '+5511900000000' }, 'SMS');
    const contact = await newContact(t, account, {
      name: 'Reachable',
      email: 'reach@example.test',
      phone_number: '+5511977776666',
      inbox_id: apiInbox.id,
      source_id: 'known-source',
    });
    const res = await api.get(`${account.path}/contacts/${contact.contact.id}/contactable_inboxes`);
    expect(res.status).toBe(200);
    const byInbox = new Map(res.body.payload.map((c: { inbox: { id: number } }) => [c.inbox.id, c]));
    expect(byInbox.get(apiInbox.id)).toMatchObject({
      source_id: 'known-source',
      inbox: { id: apiInbox.id, name: 'API' },
    });
    expect((byInbox.get(freshApi.id) as { source_id: string }).source_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(byInbox.has(widget.id)).toBe(false);
    expect(byInbox.get(email.id)).toMatchObject({ source_id: 'reach@example.test' });
    expect(byInbox.get(sms.id)).toMatchObject({ source_id: '+5511977776666' });

    // An agent sees only the inboxes it is a member of.
    const agent = await newAgent(t, account);
    await addInboxMembers(t, account, apiInbox.id, [agent.id]);
    const asAgent = await client(t.app, agent.token).get(
      `${account.path}/contacts/${contact.contact.id}/contactable_inboxes`,
    );
    expect(asAgent.body.payload.map((c: { inbox: { id: number } }) => c.inbox.id)).toEqual([apiInbox.id]);
  });

  it("answers 404 for another account's contact and 401 without a token", async () => {
    const other = await newAccount(t, 'Other');
    const theirs = (await newContact(t, other)).contact.id;
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/contacts/${theirs}/contactable_inboxes`)).status,
    ).toBe(404);
    expect((await call(t.app, { url: `${account.path}/contacts/${ids.maria}/contactable_inboxes` })).status).toBe(401);
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/contacts/abc/contactable_inboxes`)).status,
    ).toBe(404);
  });
});
