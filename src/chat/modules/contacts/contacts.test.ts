import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, newContact, newInbox, type TestAccount } from '../../../../test/helpers/factories.js';
import { contactWebhookData } from './contacts.events.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const contactRow = (id: number) => t.db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();
const count = async (table: 'contacts' | 'outbox_events', accountId: number) =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const events = (accountId: number, name: string) =>
  t.db
    .selectFrom('outbox_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .orderBy('id')
    .execute();
/** Sets last activity directly: only conversations move it, and they have no endpoint yet. */
const setActivity = (id: number, ms: number | null) =>
  t.db.updateTable('contacts').set({ last_activity_at: ms }).where('id', '=', id).execute();
const ids = (body: { payload: { id: number }[] }) => body.payload.map((c) => c.id);

describe('GET {A}/contacts', () => {
  it('lists 15 per page, by last activity (never-active last), with contact inboxes and meta', async () => {
    const account = await newAccount(t);
    const inbox = await newInbox(t, account);
    const created: number[] = [];
    for (let i = 0; i < 17; i++)
      created.push((await newContact(t, account, { name: `c${String(i).padStart(2, '0')}` })).contact.id);
    const withInbox = await newContact(t, account, {
      name: 'Ana',
      email: 'Ana@Example.test',
      phone_number: '+5511999990000',
      identifier: 'ext-1',
      inbox_id: inbox.id,
      additional_attributes: { city: 'Recife' },
    });
    await setActivity(created[3], 3_000_000);
    await setActivity(withInbox.contact.id, 5_000_000);
    const api = client(t.app, account.admin.token);

    const page1 = await api.get(`${account.path}/contacts`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ count: 18, current_page: 1 });
    expect(page1.body.payload).toHaveLength(15);
    const newestFirst = [...created].filter((id) => id !== created[3]).reverse();
    expect(ids(page1.body)).toEqual([withInbox.contact.id, created[3], ...newestFirst.slice(0, 13)]);
    expect(page1.body.payload[0]).toEqual({
      id: withInbox.contact.id,
      name: 'Ana',
      email: 'ana@example.test',
      phone_number: '+5511999990000',
      identifier: 'ext-1',
      thumbnail: '',
      availability_status: 'offline',
      blocked: false,
      type: 'contact',
      additional_attributes: { city: 'Recife' },
      custom_attributes: {},
      last_activity_at: 5000,
      created_at: expect.any(Number),
      contact_inboxes: [
        {
          source_id: withInbox.contact_inbox!.source_id,
          inbox: { id: inbox.id, name: 'Support', channel_type: 'Channel::Api' },
        },
      ],
    });
    expect(page1.body.payload[1].contact_inboxes).toEqual([]);

    const page2 = await api.get(`${account.path}/contacts?page=2`);
    expect(page2.body.meta).toEqual({ count: 18, current_page: 2 });
    expect(ids(page2.body)).toEqual(newestFirst.slice(13));
    const page3 = await api.get(`${account.path}/contacts?page=3`);
    expect(page3.body).toEqual({ meta: { count: 18, current_page: 3 }, payload: [] });
  });

  it('sorts by each key, ascending or with - descending, empty values last', async () => {
    const account = await newAccount(t);
    const b = (await newContact(t, account, { name: 'bruno', email: 'b@x.test', phone_number: '+5511000000002' }))
      .contact.id;
    const a = (await newContact(t, account, { name: 'ana', email: null, phone_number: '+5511000000003' })).contact.id;
    const c = (await newContact(t, account, { name: 'carla', email: 'a@x.test' })).contact.id;
    await setActivity(a, 2000);
    await setActivity(b, 1000);
    const api = client(t.app, account.admin.token);
    const sorted = async (sort: string) => ids((await api.get(`${account.path}/contacts?sort=${sort}`)).body);
    expect(await sorted('name')).toEqual([a, b, c]);
    expect(await sorted('-name')).toEqual([c, b, a]);
    expect(await sorted('email')).toEqual([c, b, a]);
    expect(await sorted('-email')).toEqual([b, c, a]);
    expect(await sorted('phone_number')).toEqual([b, a, c]);
    expect(await sorted('-phone_number')).toEqual([a, b, c]);
    expect(await sorted('last_activity_at')).toEqual([b, a, c]);
    expect(await sorted('-last_activity_at')).toEqual([a, b, c]);
    expect(await sorted('created_at')).toEqual([b, a, c]);
    expect(await sorted('-created_at')).toEqual([c, a, b]);
  });

  it('filters by labels (any of them), in both array spellings', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const vip = (await newContact(t, account, { name: 'v' })).contact.id;
    const both = (await newContact(t, account, { name: 'b' })).contact.id;
    await newContact(t, account, { name: 'none' });
    expect((await api.post(`${account.path}/contacts/${vip}/labels`, { labels: ['vip'] })).status).toBe(200);
    expect((await api.post(`${account.path}/contacts/${both}/labels`, { labels: ['vip', 'lead'] })).status).toBe(200);

    const one = await api.get(`${account.path}/contacts?labels[]=vip`);
    expect(one.body.meta.count).toBe(2);
    expect(ids(one.body).sort()).toEqual([vip, both].sort());
    const lead = await api.get(`${account.path}/contacts?labels=LEAD`);
    expect(lead.body).toMatchObject({ meta: { count: 1 }, payload: [{ id: both }] });
    const any = await api.get(`${account.path}/contacts?labels=lead&labels=vip`);
    expect(any.body.meta.count).toBe(2);
    expect(ids(any.body).sort()).toEqual([vip, both].sort());
    expect((await api.get(`${account.path}/contacts?labels=nobody`)).body).toEqual({
      meta: { count: 0, current_page: 1 },
      payload: [],
    });
  });

  it('rejects bad query parameters with 422', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const many = Array.from({ length: 101 }, (_, i) => `labels=l${i}`).join('&');
    for (const qs of ['page=-1', 'page=abc', 'page=1.5', 'sort=bogus', 'sort=-', `labels=${'x'.repeat(256)}`, many]) {
      const res = await api.get(`${account.path}/contacts?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
  });

  it('shows only the account’s own contacts; agents may list; no token is 401', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const mine = (await newContact(t, account)).contact.id;
    await newContact(t, other);
    const agent = await newAgent(t, account);
    const res = await client(t.app, agent.token).get(`${account.path}/contacts`);
    expect(res.status).toBe(200);
    expect(res.body.meta.count).toBe(1);
    expect(ids(res.body)).toEqual([mine]);
    expect((await client(t.app, other.admin.token).get(`${account.path}/contacts`)).status).toBe(404);
    expect((await call(t.app, { url: `${account.path}/contacts` })).status).toBe(401);
  });
});

describe('GET {A}/contacts/search', () => {
  it('matches name, email, phone number and identifier in any case, paginated', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const byName = (await newContact(t, account, { name: 'Maria Silva' })).contact.id;
    const byEmail = (await newContact(t, account, { name: 'x', email: 'silva.j@example.test' })).contact.id;
    const byPhone = (await newContact(t, account, { name: 'y', phone_number: '+5581988887777' })).contact.id;
    const byIdentifier = (await newContact(t, account, { name: 'z', identifier: 'CRM-SILVA-9' })).contact.id;
    await newContact(t, account, { name: 'Unrelated' });
    const other = await newAccount(t);
    await newContact(t, other, { name: 'Silva elsewhere' });

    const res = await api.get(`${account.path}/contacts/search?q=SILVA&sort=name`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ count: 3, current_page: 1 });
    expect(ids(res.body)).toEqual([byName, byEmail, byIdentifier]);
    expect(res.body.payload[0]).toMatchObject({
      id: byName,
      name: 'Maria Silva',
      type: 'contact',
      contact_inboxes: [],
    });
    expect(ids((await api.get(`${account.path}/contacts/search?q=98888`)).body)).toEqual([byPhone]);
    expect((await api.get(`${account.path}/contacts/search?q=silva&page=2`)).body).toEqual({
      meta: { count: 3, current_page: 2 },
      payload: [],
    });
  });

  it('takes % and _ literally', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const percent = (await newContact(t, account, { name: 'Deal 100% done' })).contact.id;
    await newContact(t, account, { name: 'Deal 1000 done' });
    const underscore = (await newContact(t, account, { name: 'snake_case' })).contact.id;
    await newContact(t, account, { name: 'snakeXcase' });
    expect(ids((await api.get(`${account.path}/contacts/search?q=${encodeURIComponent('0%')}`)).body)).toEqual([
      percent,
    ]);
    expect(ids((await api.get(`${account.path}/contacts/search?q=e_c`)).body)).toEqual([underscore]);
    expect((await api.get(`${account.path}/contacts/search?q=${encodeURIComponent('\\')}`)).body.meta.count).toBe(0);
  });

  it('requires q (422); other accounts 404; no token 401; agents may search', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    for (const qs of ['', 'q=', 'q=%20%20', `q=${'x'.repeat(256)}`, 'q=a&page=-1', 'q=a&sort=nope']) {
      const res = await api.get(`${account.path}/contacts/search?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.details[0].field).toMatch(/^(q|page|sort)$/);
    }
    const other = await newAccount(t);
    expect((await client(t.app, other.admin.token).get(`${account.path}/contacts/search?q=a`)).status).toBe(404);
    expect((await call(t.app, { url: `${account.path}/contacts/search?q=a` })).status).toBe(401);
    const agent = await newAgent(t, account);
    expect((await client(t.app, agent.token).get(`${account.path}/contacts/search?q=a`)).status).toBe(200);
  });
});

describe('PATCH/PUT {A}/contacts/:id', () => {
  async function seeded(account: TestAccount) {
    return (
      await newContact(t, account, {
        name: 'Ana',
        email: 'ana@example.test',
        custom_attributes: { plan: 'free', seats: 1 },
        additional_attributes: { city: 'Recife' },
      })
    ).contact.id;
  }

  it('updates fields, merges attributes, and records contact_updated with only the changed keys', async () => {
    const account = await newAccount(t);
    const id = await seeded(account);
    const res = await client(t.app, account.admin.token).patch(`${account.path}/contacts/${id}`, {
      name: 'Ana Maria',
      email: 'ANA.M@Example.test',
      phone_number: '+5511999990000',
      blocked: true,
      custom_attributes: { plan: 'pro' },
      additional_attributes: { company: 'Acme' },
      identifier: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({
      id,
      name: 'Ana Maria',
      email: 'ana.m@example.test',
      phone_number: '+5511999990000',
      identifier: null,
      thumbnail: '',
      availability_status: 'offline',
      blocked: true,
      type: 'contact',
      additional_attributes: { city: 'Recife', company: 'Acme' },
      custom_attributes: { plan: 'pro', seats: 1 },
      last_activity_at: null,
      created_at: expect.any(Number),
      contact_inboxes: [],
    });
    const row = (await contactRow(id))!;
    expect(row).toMatchObject({ name: 'Ana Maria', email: 'ana.m@example.test', blocked: 1 });

    const [event, ...more] = await events(account.id, 'contact_updated');
    expect(more).toEqual([]);
    const account_ = (await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow())!;
    const changed = [
      { name: { previous_value: 'Ana', current_value: 'Ana Maria' } },
      { email: { previous_value: 'ana@example.test', current_value: 'ana.m@example.test' } },
      { phone_number: { previous_value: null, current_value: '+5511999990000' } },
      { blocked: { previous_value: false, current_value: true } },
      {
        additional_attributes: {
          previous_value: { city: 'Recife' },
          current_value: { city: 'Recife', company: 'Acme' },
        },
      },
      { custom_attributes: { previous_value: { plan: 'free', seats: 1 }, current_value: { plan: 'pro', seats: 1 } } },
    ];
    expect(JSON.parse(event.payload)).toEqual({
      event: 'contact_updated',
      ...contactWebhookData(row, account_),
      changed_attributes: changed,
    });
    expect(JSON.parse(event.payload)).toMatchObject({
      id,
      name: 'Ana Maria',
      account: { id: account.id, name: 'Acme' },
      blocked: true,
    });
  });

  it('accepts PUT and a body wrapped in "contact"; an unchanged update writes no event', async () => {
    const account = await newAccount(t);
    const id = await seeded(account);
    const api = client(t.app, account.admin.token);
    const put = await api.put(`${account.path}/contacts/${id}`, { contact: { custom_attributes: { seats: 2 } } });
    expect(put.status).toBe(200);
    expect(put.body.payload.custom_attributes).toEqual({ plan: 'free', seats: 2 });
    expect(await events(account.id, 'contact_updated')).toHaveLength(1);
    const before = await contactRow(id);

    const same = await api.patch(`${account.path}/contacts/${id}`, {
      name: 'Ana',
      email: 'ANA@example.test',
      custom_attributes: { seats: 2 },
    });
    expect(same.status).toBe(200);
    expect(same.body.payload).toMatchObject({ id, name: 'Ana', custom_attributes: { plan: 'free', seats: 2 } });
    expect(await events(account.id, 'contact_updated')).toHaveLength(1);
    expect(await contactRow(id)).toEqual(before);
  });

  it('refuses an e-mail or identifier of another contact (409), changing nothing and recording no event', async () => {
    const account = await newAccount(t);
    const id = await seeded(account);
    await newContact(t, account, { name: 'Bia', email: 'bia@example.test', identifier: 'bia-1' });
    const api = client(t.app, account.admin.token);
    const outbox = await count('outbox_events', account.id);
    const before = await contactRow(id);
    for (const body of [
      { name: 'X', email: 'BIA@example.test' },
      { name: 'X', identifier: 'bia-1' },
    ]) {
      const res = await api.patch(`${account.path}/contacts/${id}`, body);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'conflict',
        error: expect.any(String),
        details: [{ field: Object.keys(body)[1] }],
      });
    }
    expect(await count('outbox_events', account.id)).toBe(outbox);
    expect(await contactRow(id)).toEqual(before);
    // The contact's own e-mail is not a conflict.
    expect(
      (await api.patch(`${account.path}/contacts/${id}`, { email: 'ana@example.test', name: 'Ana B' })).status,
    ).toBe(200);
  });

  it('rejects bad input with 422 and changes nothing', async () => {
    const account = await newAccount(t);
    const id = await seeded(account);
    const api = client(t.app, account.admin.token);
    const before = await contactRow(id);
    const outbox = await count('outbox_events', account.id);
    for (const body of [
      { name: 42 },
      { name: 'x'.repeat(256) },
      { email: 'nope' },
      { phone_number: '5511' },
      { blocked: 'yes' },
      { identifier: 'x'.repeat(256) },
      { custom_attributes: [1] },
      { avatar_url: 'x'.repeat(2049) },
      // Security review: a link shown to agents is http(s) only.
      { avatar_url: 'javascript:alert(1)' },
      { avatar_url: 'data:text/html,<script>1</script>' },
      { avatar_url: '//evil.test/x.png' },
      { custom_attributes: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) },
    ]) {
      const res = await api.patch(`${account.path}/contacts/${id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect(await contactRow(id)).toEqual(before);
    expect(await count('outbox_events', account.id)).toBe(outbox);
  });

  it('404 for unknown ids and ids of another account; 401 without a token; agents may update', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const theirs = await seeded(other);
    const api = client(t.app, account.admin.token);
    expect((await api.patch(`${account.path}/contacts/${theirs}`, { name: 'stolen' })).status).toBe(404);
    expect((await api.put(`${account.path}/contacts/999999`, { name: 'x' })).status).toBe(404);
    expect((await api.get(`${account.path}/contacts/${theirs}`)).status).toBe(404);
    expect((await contactRow(theirs))!.name).toBe('Ana');
    const mine = await seeded(account);
    expect(
      (await call(t.app, { method: 'PATCH', url: `${account.path}/contacts/${mine}`, body: { name: 'x' } })).status,
    ).toBe(401);
    const agent = await newAgent(t, account);
    const res = await client(t.app, agent.token).patch(`${account.path}/contacts/${mine}`, { name: 'By agent' });
    expect(res.status).toBe(200);
    expect(res.body.payload.name).toBe('By agent');
  });
});

describe('contact events', () => {
  it('a committed create records exactly one contact_created with the webhook payload; a refused one records none', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const res = await api.post(`${account.path}/contacts`, { name: 'Eva', email: 'eva@example.test' });
    expect(res.status).toBe(200);
    const id = res.body.payload.contact.id;
    const rows = await events(account.id, 'contact_created');
    expect(rows).toHaveLength(1);
    const acc = await t.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(JSON.parse(rows[0].payload)).toEqual({
      event: 'contact_created',
      ...contactWebhookData((await contactRow(id))!, acc),
    });

    const outbox = await count('outbox_events', account.id);
    const contacts = await count('contacts', account.id);
    const dup = await api.post(`${account.path}/contacts`, { name: 'Eva 2', email: 'EVA@example.test' });
    expect(dup.status).toBe(409);
    expect(await count('outbox_events', account.id)).toBe(outbox);
    expect(await count('contacts', account.id)).toBe(contacts);
  });
});
