import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { countRows } from '../../../../test/helpers/db.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

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

const path = (a: TestAccount, id?: number) => `${a.path}/canned_responses${id === undefined ? '' : `/${id}`}`;

async function create(a: TestAccount, short_code: string, content: string, token = a.admin.token) {
  const res = await client(t.app, token).post(path(a), { short_code, content });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; short_code: string; content: string };
}

const rows = () => t.db.selectFrom('canned_responses').selectAll().orderBy('id').execute();

describe('{A}/canned_responses', () => {
  it("creates, lists, updates and deletes in Chatwoot's shape; any agent of the account may", async () => {
    const api = client(t.app, agent.token);
    const created = await api.post(path(account), { short_code: 'greet', content: 'Hello {{contact.name}}!' });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      account_id: account.id,
      short_code: 'greet',
      content: 'Hello {{contact.name}}!',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const id = created.body.id;

    const listed = await api.get(path(account));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body]);

    const patched = await api.patch(path(account, id), { content: 'Hi there' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id, short_code: 'greet', content: 'Hi there' });

    // Rails clients wrap the body in the resource key.
    const wrapped = await api.patch(path(account, id), { canned_response: { short_code: 'hello' } });
    expect(wrapped.status, wrapped.text).toBe(200);
    expect(wrapped.body).toMatchObject({ short_code: 'hello', content: 'Hi there' });

    const deleted = await api.delete(path(account, id));
    expect(deleted.status).toBe(200);
    expect((await api.get(path(account))).body).toEqual([]);
    expect((await api.delete(path(account, id))).status).toBe(404);
  });

  it('refuses a short code with spaces, blank fields or wrong types with 422, changing nothing', async () => {
    const api = client(t.app, account.admin.token);
    const kept = await create(account, 'keep', 'Kept as it is');
    const before = await rows();
    for (const body of [
      { short_code: 'two words', content: 'x' },
      { short_code: 'tab\there', content: 'x' },
      { short_code: '   ', content: 'x' },
      { short_code: 'ok', content: '   ' },
      { short_code: 'ok' },
      { content: 'x' },
      { short_code: 12, content: 'x' },
    ]) {
      const res = await api.post(path(account), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    for (const body of [{ short_code: 'has space' }, { content: '  ' }, { short_code: null }]) {
      expect((await api.patch(path(account, kept.id), body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await rows()).toEqual(before);
    await api.delete(path(account, kept.id));
  });

  it('keeps short codes unique in the account regardless of case (409), but not across accounts', async () => {
    const api = client(t.app, account.admin.token);
    const first = await create(account, 'Refund', 'We refunded you');
    const second = await create(account, 'shipping', 'On its way');
    const before = await rows();
    const dup = await api.post(path(account), { short_code: 'refund', content: 'Another' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', details: [{ field: 'short_code' }] });
    expect((await api.patch(path(account, second.id), { short_code: 'REFUND' })).status).toBe(409);
    expect(await rows()).toEqual(before);
    // The same short code in its own record, or in another account, is fine.
    expect((await api.patch(path(account, first.id), { short_code: 'refund' })).status).toBe(200);
    await create(other, 'refund', 'Theirs');
    for (const id of [first.id, second.id]) await api.delete(path(account, id));
  });

  it('searches short codes and content case-insensitively, short-code matches first', async () => {
    const api = client(t.app, agent.token);
    const ids = [
      await create(account, 'zeta', 'Talk about an ORDER here'),
      await create(account, 'order-status', 'Where is it'),
      await create(account, 'my-order', 'Mine'),
      await create(account, 'order', 'The exact one'),
      await create(account, 'unrelated', 'Nothing to see'),
      await create(account, '100%', 'Literal percent'),
    ].map((r) => r.id);
    const search = async (q: string) =>
      ((await api.get(`${path(account)}?search=${encodeURIComponent(q)}`)).body as { short_code: string }[]).map(
        (r) => r.short_code,
      );
    // Exact short code, then short codes starting with it, then containing it, then content only.
    expect(await search('Order')).toEqual(['order', 'order-status', 'my-order', 'zeta']);
    expect(await search('WHERE')).toEqual(['order-status']);
    // `%` and `_` are matched as themselves.
    expect(await search('%')).toEqual(['100%']);
    expect(await search('_')).toEqual([]);
    expect(await search('nothing at all')).toEqual([]);
    // Without a search: everything, alphabetical by short code.
    expect(await search('')).toEqual(['100%', 'my-order', 'order', 'order-status', 'unrelated', 'zeta']);
    // Another account sees none of them.
    expect((await client(t.app, other.admin.token).get(`${path(other)}?search=order`)).body).toEqual([]);
    for (const id of ids) await api.delete(path(account, id));
  });

  it("answers 404 to another account's ids and to non-members, 401 without a token", async () => {
    const mine = await create(account, 'mine', 'Ours');
    const theirs = await create(other, 'theirs', 'Not yours');
    const before = await rows();
    const api = client(t.app, account.admin.token);
    expect((await api.patch(path(account, theirs.id), { content: 'x' })).status).toBe(404);
    expect((await api.delete(path(account, theirs.id))).status).toBe(404);
    // An id of the other account under the other account's path: not a member there.
    expect((await api.get(path(other))).status).toBe(404);
    expect((await api.post(path(other), { short_code: 'x', content: 'y' })).status).toBe(404);
    expect((await call(t.app, { url: path(account) })).status).toBe(401);
    expect(
      (await call(t.app, { method: 'POST', url: path(account), body: { short_code: 'a', content: 'b' } })).status,
    ).toBe(401);
    expect(await rows()).toEqual(before);
    expect(await countRows(t.db, 'canned_responses')).toBeGreaterThanOrEqual(2);
    await api.delete(path(account, mine.id));
  });
});
