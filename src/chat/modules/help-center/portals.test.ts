import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newAccount, newAgent, newUser, type TestAccount } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const slug = (prefix = 'portal') => `${prefix}-${Date.now().toString(36)}-${++n}`;
const portalRows = () => t.db.selectFrom('help_portals').selectAll().orderBy('id').execute();

async function newPortal(account: TestAccount, fields: Record<string, unknown> = {}) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/portals`, {
    name: 'Handbook',
    slug: slug(),
    ...fields,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; slug: string; [field: string]: any };
}

describe('portals at {A}/portals', () => {
  it('creates, lists, shows (by id or slug), updates and deletes a portal in Chatwoot shapes', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const s = slug('acme');
    const created = await api.post(`${account.path}/portals`, {
      portal: {
        name: 'Acme Help',
        slug: s,
        color: '#1F93FF',
        homepage_link: 'https://acme.example.test',
        custom_domain: `Help.${s}.example.test`,
        header_text: 'How can we help?',
        page_title: 'Acme Help Center',
        config: { default_locale: 'pt-br' },
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Acme Help',
      slug: s,
      color: '#1F93FF',
      custom_domain: `help.${s}.example.test`,
      homepage_link: 'https://acme.example.test',
      header_text: 'How can we help?',
      page_title: 'Acme Help Center',
      archived: false,
      account_id: account.id,
      articles_count: 0,
      categories_count: 0,
      config: { allowed_locales: [{ code: 'pt_BR', articles_count: 0, categories_count: 0 }], default_locale: 'pt_BR' },
      meta: {
        all_articles_count: 0,
        archived_articles_count: 0,
        published_count: 0,
        draft_articles_count: 0,
        categories_count: 0,
        default_locale: 'pt_BR',
      },
      url: `http://chat.test/hc/${s}`,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const id = created.body.id;

    const list = await api.get(`${account.path}/portals`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ payload: [created.body], meta: { portals_count: 1, current_page: 1 } });
    expect((await api.get(`${account.path}/portals/${id}`)).body).toEqual(created.body);
    expect((await api.get(`${account.path}/portals/${s}`)).body).toEqual(created.body);

    const patched = await api.patch(`${account.path}/portals/${s}`, {
      name: 'Acme Support',
      color: null,
      archived: true,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id, name: 'Acme Support', color: null, archived: true, slug: s });

    // Counts follow the portal's categories and articles, per status and locale.
    const category = await api.post(`${account.path}/portals/${id}/categories`, { name: 'Billing', locale: 'en' });
    expect(category.status).toBe(200);
    for (const status of ['draft', 'published', 'published'])
      expect(
        (await api.post(`${account.path}/portals/${id}/articles`, { title: 'A', content: 'x', status })).status,
      ).toBe(200);
    const counted = (await api.get(`${account.path}/portals/${id}`)).body;
    expect(counted).toMatchObject({
      articles_count: 3,
      categories_count: 1,
      meta: { all_articles_count: 3, published_count: 2, draft_articles_count: 1, archived_articles_count: 0 },
      config: {
        allowed_locales: [
          { code: 'pt_BR', articles_count: 3, categories_count: 0 },
          { code: 'en', articles_count: 0, categories_count: 1 },
        ],
      },
    });

    const removed = await api.delete(`${account.path}/portals/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect((await api.get(`${account.path}/portals/${id}`)).status).toBe(404);
    // Its categories and articles went with it.
    expect(await t.db.selectFrom('help_articles').select('id').where('portal_id', '=', id).execute()).toEqual([]);
    expect(await t.db.selectFrom('help_categories').select('id').where('portal_id', '=', id).execute()).toEqual([]);
  });

  it('keeps slugs and custom domains unique in the installation (409), and refuses bad values (422) changing nothing', async () => {
    const a = await newAccount(t);
    const b = await newAccount(t);
    const first = await newPortal(a, { custom_domain: `docs-${n}.example.test` });
    const before = await portalRows();
    const apiB = client(t.app, b.admin.token);
    const taken = await apiB.post(`${b.path}/portals`, { name: 'Other', slug: first.slug.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: 'conflict',
      details: [{ field: 'slug', message: 'has already been taken' }],
    });
    const domain = await apiB.post(`${b.path}/portals`, {
      name: 'Other',
      slug: slug(),
      custom_domain: first.custom_domain,
    });
    expect(domain.status).toBe(409);
    for (const body of [
      {},
      { name: 'No slug' },
      { slug: slug() },
      { name: ' ', slug: slug() },
      { name: 'X', slug: 'has spaces' },
      { name: 'X', slug: '12345' },
      { name: 'X', slug: 'a--b' },
      { name: 'X', slug: slug(), color: 'blue' },
      { name: 'X', slug: slug(), color: '#12345' },
      { name: 'X', slug: slug(), homepage_link: 'javascript:alert(1)' },
      { name: 'X', slug: slug(), homepage_link: 'ftp://example.test' },
      { name: 'X', slug: slug(), custom_domain: 'not a domain' },
      { name: 'X', slug: slug(), config: { default_locale: 'english!' } },
      { name: 42, slug: slug() },
    ]) {
      const res = await apiB.post(`${b.path}/portals`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toEqual(expect.any(String));
    }
    const patchTaken = await client(t.app, a.admin.token).patch(`${a.path}/portals/${first.id}`, { slug: 'a b' });
    expect(patchTaken.status).toBe(422);
    const second = await newPortal(b);
    expect((await apiB.patch(`${b.path}/portals/${second.id}`, { slug: first.slug })).status).toBe(409);
    expect((await portalRows()).filter((p) => p.id !== second.id)).toEqual(before);
    expect((await apiB.patch(`${b.path}/portals/${second.id}`, { slug: second.slug })).status).toBe(200);
  });

  it("lets agents read but not write, hides another account's portals (404), and needs a token (401)", async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const agent = await newAgent(t, account);
    const portal = await newPortal(account);
    const theirs = await newPortal(other);
    const asAgent = client(t.app, agent.token);
    expect((await asAgent.get(`${account.path}/portals`)).status).toBe(200);
    expect((await asAgent.get(`${account.path}/portals/${portal.id}`)).status).toBe(200);
    const before = await portalRows();
    for (const res of [
      await asAgent.post(`${account.path}/portals`, { name: 'X', slug: slug() }),
      await asAgent.patch(`${account.path}/portals/${portal.id}`, { name: 'X' }),
      await asAgent.delete(`${account.path}/portals/${portal.id}`),
    ])
      expect(res.status).toBe(403);
    const admin = client(t.app, account.admin.token);
    for (const ref of [theirs.id, theirs.slug]) {
      expect((await admin.get(`${account.path}/portals/${ref}`)).status).toBe(404);
      expect((await admin.patch(`${account.path}/portals/${ref}`, { name: 'Mine' })).status).toBe(404);
      expect((await admin.delete(`${account.path}/portals/${ref}`)).status).toBe(404);
    }
    expect((await admin.get(`${other.path}/portals`)).status).toBe(404);
    expect((await call(t.app, { url: `${account.path}/portals` })).status).toBe(401);
    expect(
      (await call(t.app, { method: 'POST', url: `${account.path}/portals`, body: { name: 'X', slug: slug() } })).status,
    ).toBe(401);
    expect(await portalRows()).toEqual(before);
  });
});

describe('portals at /api/v1/portals (the account from account_id or the only membership)', () => {
  it("uses the user's only account when none is named", async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const s = slug();
    const created = await api.post('/api/v1/portals', { name: 'Spec', slug: s });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ account_id: account.id, slug: s });
    expect((await api.get('/api/v1/portals')).body.payload.map((p: { id: number }) => p.id)).toEqual([created.body.id]);
    expect((await api.get(`/api/v1/portals/${s}`)).body).toEqual(created.body);
    expect((await api.patch(`/api/v1/portals/${created.body.id}`, { name: 'Spec 2' })).body.name).toBe('Spec 2');
    // The same portal through Chatwoot's path.
    expect((await api.get(`${account.path}/portals/${created.body.id}`)).body.name).toBe('Spec 2');
    expect((await api.delete(`/api/v1/portals/${s}`)).status).toBe(200);
    expect(await portalRows().then((rows) => rows.filter((r) => r.slug === s))).toEqual([]);
  });

  it('needs account_id from a member of several accounts (422), and honours it', async () => {
    const a = await newAccount(t);
    const b = await newAccount(t);
    await addMember(t, b.id, a.admin.id, 'agent');
    const api = client(t.app, a.admin.token);
    const before = await portalRows();
    const unnamed = await api.post('/api/v1/portals', { name: 'Which?', slug: slug() });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body).toMatchObject({ code: 'unprocessable_entity', details: [{ field: 'account_id' }] });
    expect((await api.get('/api/v1/portals')).status).toBe(422);
    expect(await portalRows()).toEqual(before);
    const inA = await api.post(`/api/v1/portals?account_id=${a.id}`, { name: 'In A', slug: slug() });
    expect(inA.status).toBe(200);
    expect(inA.body.account_id).toBe(a.id);
    // An agent in B: may read B's portals, may not write them.
    expect((await api.get(`/api/v1/portals?account_id=${b.id}`)).body.payload).toEqual([]);
    expect((await api.post(`/api/v1/portals?account_id=${b.id}`, { name: 'In B', slug: slug() })).status).toBe(403);
    // A's portal is not in B.
    expect((await api.get(`/api/v1/portals/${inA.body.id}?account_id=${b.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/portals/${inA.body.id}?account_id=${a.id}`)).status).toBe(200);
  });

  it('answers 404 for an account the user is not a member of, 422 for a malformed one, 401 without a user token', async () => {
    const account = await newAccount(t);
    const stranger = await newAccount(t);
    const lonely = await newUser(t, 'No account');
    const api = client(t.app, account.admin.token);
    expect((await api.get(`/api/v1/portals?account_id=${stranger.id}`)).status).toBe(404);
    expect((await api.get('/api/v1/portals?account_id=abc')).status).toBe(422);
    expect((await client(t.app, lonely.token).get('/api/v1/portals')).status).toBe(404);
    expect((await call(t.app, { url: '/api/v1/portals' })).status).toBe(401);
    expect((await client(t.app, t.platformToken).get('/api/v1/portals')).status).toBe(401);
  });
});
