import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
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
const categoryRows = () => t.db.selectFrom('help_categories').selectAll().orderBy('id').execute();

async function newPortal(account: TestAccount, fields: Record<string, unknown> = {}) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/portals`, {
    name: 'Docs',
    slug: `docs-${Date.now().toString(36)}-${++n}`,
    ...fields,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; slug: string };
}

describe('categories', () => {
  it('creates with a slug from the name and the next position, then lists, shows, updates and deletes', async () => {
    const account = await newAccount(t);
    const portal = await newPortal(account, { config: { default_locale: 'en' } });
    const api = client(t.app, account.admin.token);
    const P = `${account.path}/portals/${portal.id}/categories`;
    const created = await api.post(P, {
      category: { name: '  Getting Started & Billing ', description: 'First steps' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      payload: {
        id: expect.any(Number),
        name: 'Getting Started & Billing',
        slug: 'getting-started-billing',
        locale: 'en',
        description: 'First steps',
        position: 1,
        account_id: account.id,
        portal_id: portal.id,
        articles_count: 0,
        meta: { articles_count: 0 },
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
    });
    const first = created.body.payload;
    const second = (await api.post(P, { name: 'Educação Financeira', locale: 'pt-BR' })).body.payload;
    expect(second).toMatchObject({ slug: 'educacao-financeira', locale: 'pt_BR', position: 2, description: null });
    const third = (await api.post(P, { name: 'Ordem', position: 0, slug: 'First' })).body.payload;
    expect(third).toMatchObject({ slug: 'first', position: 0 });

    const list = await api.get(P);
    expect(list.status).toBe(200);
    expect(list.body.payload.map((c: { id: number }) => c.id)).toEqual([third.id, first.id, second.id]);
    expect(list.body.meta).toEqual({ categories_count: 3 });
    expect((await api.get(`${P}?locale=pt_BR`)).body.payload.map((c: { id: number }) => c.id)).toEqual([second.id]);
    // The portal may be named by its slug, and the spec's path family works too.
    expect((await api.get(`${account.path}/portals/${portal.slug}/categories/${first.id}`)).body.payload).toEqual(
      first,
    );
    expect((await api.get(`/api/v1/portals/${portal.id}/categories/${first.id}`)).body.payload).toEqual(first);

    // A new name keeps the slug (readers' links keep working); the slug changes only when given.
    const renamed = await api.patch(`${P}/${first.id}`, { name: 'Start here', position: 5 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.payload).toMatchObject({ name: 'Start here', slug: 'getting-started-billing', position: 5 });
    expect((await api.patch(`${P}/${first.id}`, { slug: 'start-here' })).body.payload.slug).toBe('start-here');

    expect((await api.delete(`${P}/${third.id}`)).body).toEqual({});
    expect((await api.get(`${P}/${third.id}`)).status).toBe(404);
  });

  it('refuses a taken slug in the same portal and locale (409) but not in another locale or portal', async () => {
    const account = await newAccount(t);
    const portal = await newPortal(account, { config: { default_locale: 'en' } });
    const other = await newPortal(account);
    const api = client(t.app, account.admin.token);
    const P = `${account.path}/portals/${portal.id}/categories`;
    await api.post(P, { name: 'Billing' });
    const before = await categoryRows();
    const same = await api.post(P, { name: 'billing' });
    expect(same.status).toBe(409);
    expect(same.body.details).toEqual([{ field: 'slug', message: 'has already been taken' }]);
    expect((await api.post(P, { name: 'Other', slug: 'billing' })).status).toBe(409);
    expect(await categoryRows()).toEqual(before);
    expect((await api.post(P, { name: 'Billing', locale: 'es' })).status).toBe(200);
    expect((await api.post(`${account.path}/portals/${other.id}/categories`, { name: 'Billing' })).status).toBe(200);
    const es = (await api.get(`${P}?locale=es`)).body.payload[0];
    // Moving the Spanish one into English would collide.
    expect((await api.patch(`${P}/${es.id}`, { locale: 'en' })).status).toBe(409);
  });

  it('refuses bad input (422) changing nothing; agents read only (403); other accounts are 404; 401 without a token', async () => {
    const account = await newAccount(t);
    const outsider = await newAccount(t);
    const agent = await newAgent(t, account);
    const portal = await newPortal(account);
    const theirPortal = await newPortal(outsider);
    const api = client(t.app, account.admin.token);
    const P = `${account.path}/portals/${portal.id}/categories`;
    const category = (await api.post(P, { name: 'Mine' })).body.payload;
    const theirs = (
      await client(t.app, outsider.admin.token).post(`${outsider.path}/portals/${theirPortal.id}/categories`, {
        name: 'Theirs',
      })
    ).body.payload;
    const before = await categoryRows();
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'X', locale: 'not a locale' },
      { name: 'X', position: -1 },
      { name: 'X', position: 'first' },
      { name: 'X', slug: 'Has Spaces' },
      { name: ['X'] },
    ])
      expect((await api.post(P, body)).status, JSON.stringify(body)).toBe(422);
    expect((await api.patch(`${P}/${category.id}`, { name: '   ' })).status).toBe(422);
    const asAgent = client(t.app, agent.token);
    expect((await asAgent.get(P)).status).toBe(200);
    expect((await asAgent.get(`${P}/${category.id}`)).status).toBe(200);
    expect((await asAgent.post(P, { name: 'X' })).status).toBe(403);
    expect((await asAgent.patch(`${P}/${category.id}`, { name: 'X' })).status).toBe(403);
    expect((await asAgent.delete(`${P}/${category.id}`)).status).toBe(403);
    // Their category through my portal, my category through their portal, their portal in my path.
    expect((await api.get(`${P}/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`${P}/${theirs.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await api.delete(`${P}/${theirs.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/portals/${theirPortal.id}/categories`)).status).toBe(404);
    expect((await api.post(`${account.path}/portals/${theirPortal.id}/categories`, { name: 'X' })).status).toBe(404);
    expect((await call(t.app, { url: P })).status).toBe(401);
    expect(await categoryRows()).toEqual(before);
  });

  it('moves its articles along when its locale changes, and leaves them without a category when deleted', async () => {
    const account = await newAccount(t);
    const portal = await newPortal(account, { config: { default_locale: 'en' } });
    const api = client(t.app, account.admin.token);
    const P = `${account.path}/portals/${portal.id}`;
    const category = (await api.post(`${P}/categories`, { name: 'Guides' })).body.payload;
    const article = (await api.post(`${P}/articles`, { title: 'Guide', content: 'x', category_id: category.id })).body
      .payload;
    expect(article.locale).toBe('en');
    expect((await api.get(`${P}/categories/${category.id}`)).body.payload.articles_count).toBe(1);
    await api.patch(`${P}/categories/${category.id}`, { locale: 'pt_BR' });
    expect((await api.get(`${P}/articles/${article.id}`)).body.payload).toMatchObject({ locale: 'pt_BR' });
    expect((await api.delete(`${P}/categories/${category.id}`)).status).toBe(200);
    expect((await api.get(`${P}/articles/${article.id}`)).body.payload).toMatchObject({
      id: article.id,
      category_id: null,
      category: null,
    });
  });
});
