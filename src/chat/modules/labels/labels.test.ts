import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../../test/helpers/db.js';
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

let t: ChatTestApp;
let account: TestAccount;
let agent: TestUser;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  agent = await newAgent(t, account);
});
afterAll(async () => {
  await t.close();
});

const labelsRows = () => t.db.selectFrom('labels').selectAll().orderBy('id').execute();

describe('{A}/labels', () => {
  it('creates, lists, shows, updates and deletes labels in Chatwoot’s shape', async () => {
    const api = client(t.app, account.admin.token);
    const created = await api.post(`${account.path}/labels`, {
      label: { title: 'VIP', description: 'Best customers', color: '#ff0000', show_on_sidebar: true },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      title: 'vip',
      description: 'Best customers',
      color: '#ff0000',
      show_on_sidebar: true,
    });
    const plain = await api.post(`${account.path}/labels`, { title: 'billing' });
    expect(plain.body).toEqual({
      id: expect.any(Number),
      title: 'billing',
      description: null,
      color: '#1f93ff',
      show_on_sidebar: false,
    });
    // Every member lists and reads them.
    const listed = await client(t.app, agent.token).get(`${account.path}/labels`);
    expect(listed.status).toBe(200);
    expect(listed.body.payload.map((l: { title: string }) => l.title)).toEqual(['billing', 'vip']);
    expect((await client(t.app, agent.token).get(`${account.path}/labels/${created.body.id}`)).body.title).toBe('vip');

    const updated = await api.patch(`${account.path}/labels/${created.body.id}`, {
      description: '',
      show_on_sidebar: 'false',
      color: '#00FF00',
    });
    expect(updated.status).toBe(200);
    // "" is "not given" (Rails): the description stays; "false" is false.
    expect(updated.body).toMatchObject({ description: 'Best customers', show_on_sidebar: false, color: '#00FF00' });
    const cleared = await api.patch(`${account.path}/labels/${created.body.id}`, { description: null });
    expect(cleared.body.description).toBeNull();

    expect((await api.delete(`${account.path}/labels/${plain.body.id}`)).body).toEqual({});
    expect((await api.get(`${account.path}/labels/${plain.body.id}`)).status).toBe(404);
  });

  it('renames the label on the contacts and conversations carrying it; deleting leaves them their strings', async () => {
    const api = client(t.app, account.admin.token);
    const label = (await api.post(`${account.path}/labels`, { title: 'lead' })).body;
    const contact = (await newContact(t, account)).contact;
    const conversation = await newConversation(t, account);
    const both = await newConversation(t, account);
    await api.post(`${account.path}/contacts/${contact.id}/labels`, { labels: ['lead', 'other'] });
    await api.post(`${account.path}/conversations/${conversation.id}/labels`, { labels: ['lead'] });
    await api.post(`${account.path}/conversations/${both.id}/labels`, { labels: ['lead', 'prospect'] });

    const renamed = await api.patch(`${account.path}/labels/${label.id}`, { title: 'Prospect' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('prospect');
    expect((await api.get(`${account.path}/contacts/${contact.id}/labels`)).body.payload).toEqual([
      'other',
      'prospect',
    ]);
    expect((await api.get(`${account.path}/conversations/${conversation.id}/labels`)).body.payload).toEqual([
      'prospect',
    ]);
    expect((await api.get(`${account.path}/conversations/${both.id}/labels`)).body.payload).toEqual(['prospect']);

    await api.delete(`${account.path}/labels/${label.id}`);
    expect((await api.get(`${account.path}/contacts/${contact.id}/labels`)).body.payload).toEqual([
      'other',
      'prospect',
    ]);
    // Labels as strings need no catalogue entry.
    const free = await api.post(`${account.path}/conversations/${conversation.id}/labels`, {
      labels: ['not-in-catalogue'],
    });
    expect(free.body.payload).toEqual(['not-in-catalogue']);
  });

  it('rejects bad input with 422 and a taken title with 409, changing nothing', async () => {
    const api = client(t.app, account.admin.token);
    const existing = (await api.post(`${account.path}/labels`, { title: 'taken' })).body;
    const before = await labelsRows();
    for (const body of [
      {},
      { title: '' },
      { title: 'two words' },
      { title: 'comma,label' },
      { title: 'x'.repeat(256) },
      { title: 42 },
      { title: 'ok', color: 'red' },
      { title: 'ok', show_on_sidebar: 'maybe' },
    ]) {
      const res = await api.post(`${account.path}/labels`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: expect.any(Array) });
    }
    const duplicate = await api.post(`${account.path}/labels`, { title: 'TAKEN' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'conflict', details: [{ field: 'title' }] });
    const other = (await api.post(`${account.path}/labels`, { title: 'other-one' })).body;
    const rename = await api.patch(`${account.path}/labels/${other.id}`, { title: 'taken' });
    expect(rename.status).toBe(409);
    expect((await api.patch(`${account.path}/labels/${existing.id}`, { title: 'no spaces allowed' })).status).toBe(422);
    await api.delete(`${account.path}/labels/${other.id}`);
    expect(await labelsRows()).toEqual(before);
  });

  it("answers 404 for another account's labels, 403 to agents writing, 401 without a token", async () => {
    const other = await newAccount(t, 'Other');
    const theirs = (await client(t.app, other.admin.token).post(`${other.path}/labels`, { title: 'theirs' })).body;
    const api = client(t.app, account.admin.token);
    const before = await countRows(t.db, 'labels');
    expect((await api.get(`${account.path}/labels/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`${account.path}/labels/${theirs.id}`, { title: 'mine' })).status).toBe(404);
    expect((await api.delete(`${account.path}/labels/${theirs.id}`)).status).toBe(404);
    expect((await api.get(`${other.path}/labels`)).status).toBe(404);
    expect((await api.get(`${account.path}/labels`)).body.payload.map((l: { title: string }) => l.title)).not.toContain(
      'theirs',
    );
    const mine = (await api.post(`${account.path}/labels`, { title: 'agents-cannot' })).body;
    const asAgent = client(t.app, agent.token);
    expect((await asAgent.post(`${account.path}/labels`, { title: 'nope' })).status).toBe(403);
    expect((await asAgent.patch(`${account.path}/labels/${mine.id}`, { color: '#000000' })).status).toBe(403);
    expect((await asAgent.delete(`${account.path}/labels/${mine.id}`)).status).toBe(403);
    expect((await call(t.app, { url: `${account.path}/labels` })).status).toBe(401);
    expect(await countRows(t.db, 'labels')).toBe(before + 1);
  });
});
