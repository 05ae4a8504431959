import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, newContact } from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const storedLabels = async (contactId: number) =>
  (
    await t.db
      .selectFrom('taggings')
      .select(['label', 'taggable_type', 'account_id'])
      .where('taggable_id', '=', contactId)
      .where('taggable_type', '=', 'Contact')
      .orderBy('label')
      .execute()
  ).map((r) => r.label);

describe('{A}/contacts/:id/labels', () => {
  it('replaces the labels (trimmed, lower-cased, de-duplicated, sorted) and lists them', async () => {
    const account = await newAccount(t);
    const id = (await newContact(t, account)).contact.id;
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/contacts/${id}/labels`;

    expect((await api.get(url)).body).toEqual({ payload: [] });
    const set = await api.post(url, { labels: ['  Support ', 'billing', 'BILLING', 'vip-2'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ payload: ['billing', 'support', 'vip-2'] });
    expect(await api.get(url)).toMatchObject({ status: 200, body: { payload: ['billing', 'support', 'vip-2'] } });
    expect(await storedLabels(id)).toEqual(['billing', 'support', 'vip-2']);
    const row = await t.db
      .selectFrom('taggings')
      .selectAll()
      .where('taggable_id', '=', id)
      .where('label', '=', 'billing')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account_id: account.id, taggable_type: 'Contact' });

    const replaced = await api.post(url, { labels: ['vip-2', 'lead'] });
    expect(replaced.body).toEqual({ payload: ['lead', 'vip-2'] });
    expect(await storedLabels(id)).toEqual(['lead', 'vip-2']);
    expect((await api.post(url, { labels: [] })).body).toEqual({ payload: [] });
    expect(await storedLabels(id)).toEqual([]);
  });

  it('keeps each contact’s labels apart', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const a = (await newContact(t, account)).contact.id;
    const b = (await newContact(t, account)).contact.id;
    await api.post(`${account.path}/contacts/${a}/labels`, { labels: ['x'] });
    await api.post(`${account.path}/contacts/${b}/labels`, { labels: ['y'] });
    expect((await api.get(`${account.path}/contacts/${a}/labels`)).body.payload).toEqual(['x']);
    expect((await api.get(`${account.path}/contacts/${b}/labels`)).body.payload).toEqual(['y']);
  });

  it('rejects bad labels with 422 and leaves the labels as they were', async () => {
    const account = await newAccount(t);
    const id = (await newContact(t, account)).contact.id;
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/contacts/${id}/labels`;
    await api.post(url, { labels: ['keep'] });
    const cases: [unknown, string, string][] = [
      [{}, 'labels', 'validation_failed'],
      [{ labels: { vip: true } }, 'labels.0', 'validation_failed'],
      [{ labels: [42] }, 'labels.0', 'validation_failed'],
      [{ labels: ['x'.repeat(256)] }, 'labels.0', 'validation_failed'],
      [{ labels: Array.from({ length: 101 }, (_, i) => `l${i}`) }, 'labels', 'validation_failed'],
      [{ labels: ['ok', 'a,b'] }, 'labels.1', 'unprocessable_entity'],
      [{ labels: ['ok', '   '] }, 'labels.1', 'unprocessable_entity'],
    ];
    for (const [body, field, code] of cases) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body).toMatchObject({ code, error: expect.any(String) });
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await storedLabels(id)).toEqual(['keep']);
  });

  it('404 for contacts of another account or unknown; 401 without a token; agents may set labels', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const theirs = (await newContact(t, other)).contact.id;
    await client(t.app, other.admin.token).post(`${other.path}/contacts/${theirs}/labels`, { labels: ['theirs'] });
    const api = client(t.app, account.admin.token);
    expect((await api.get(`${account.path}/contacts/${theirs}/labels`)).status).toBe(404);
    const stolen = await api.post(`${account.path}/contacts/${theirs}/labels`, { labels: ['stolen'] });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toMatchObject({ code: 'not_found' });
    expect(await storedLabels(theirs)).toEqual(['theirs']);
    expect((await api.get(`${account.path}/contacts/999999/labels`)).status).toBe(404);

    const mine = (await newContact(t, account)).contact.id;
    expect((await call(t.app, { url: `${account.path}/contacts/${mine}/labels` })).status).toBe(401);
    expect(
      (await call(t.app, { method: 'POST', url: `${account.path}/contacts/${mine}/labels`, body: { labels: ['x'] } }))
        .status,
    ).toBe(401);
    const agent = await newAgent(t, account);
    const res = await client(t.app, agent.token).post(`${account.path}/contacts/${mine}/labels`, {
      labels: ['Agent-Set'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payload: ['agent-set'] });
  });
});
