import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, newUser, type TestAccount } from '../../../../test/helpers/factories.js';
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
const articleRows = () =>
  t.db
    .selectFrom('help_articles')
    .select(['id', 'title', 'slug', 'status', 'content', 'category_id', 'author_id', 'updated_at'])
    .orderBy('id')
    .execute();

async function setUp(account?: TestAccount) {
  const owner = account ?? (await newAccount(t));
  const api = client(t.app, owner.admin.token);
  const portal = (
    await api.post(`${owner.path}/portals`, { name: 'Docs', slug: `kb-${Date.now().toString(36)}-${++n}` })
  ).body;
  const P = `${owner.path}/portals/${portal.id}`;
  const category = (await api.post(`${P}/categories`, { name: 'Billing', locale: 'pt_BR' })).body.payload;
  return { account: owner, api, portal, P, category };
}

describe('articles', () => {
  it('creates a draft by default with a slug from the title, in the Chatwoot shape {payload}', async () => {
    const { account, api, portal, P, category } = await setUp();
    const created = await api.post(`${P}/articles`, {
      article: {
        title: 'How do I pay an invoice?',
        content: '# Paying\n\nUse **the portal**.',
        description: 'Paying invoices',
        category_id: category.id,
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      payload: {
        id: expect.any(Number),
        slug: 'how-do-i-pay-an-invoice',
        title: 'How do I pay an invoice?',
        content: '# Paying\n\nUse **the portal**.',
        description: 'Paying invoices',
        status: 'draft',
        position: 1,
        locale: 'pt_BR',
        views: 0,
        account_id: account.id,
        portal_id: portal.id,
        category_id: category.id,
        category: { id: category.id, name: 'Billing', slug: 'billing', locale: 'pt_BR' },
        author_id: account.admin.id,
        author: {
          id: account.admin.id,
          name: 'Admin',
          available_name: 'Admin',
          email: account.admin.email,
          thumbnail: '',
        },
        meta: {},
        associated_articles: [],
        url: `http://chat.test/hc/${portal.slug}/articles/how-do-i-pay-an-invoice`,
        published_at: null,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
    });
    const id = created.body.payload.id;
    expect((await api.get(`${P}/articles/${id}`)).body).toEqual(created.body);
    expect((await api.get(`/api/v1/portals/${portal.slug}/articles/${id}`)).body).toEqual(created.body);

    // The same title again: a free slug with a suffix. An explicit slug that is taken: 409.
    const again = await api.post(`${P}/articles`, { title: 'How do I pay an invoice?', content: 'Again' });
    expect(again.body.payload.slug).toBe('how-do-i-pay-an-invoice-2');
    expect(again.body.payload.locale).toBe('en');
    const before = await articleRows();
    const taken = await api.post(`${P}/articles`, { title: 'Other', content: 'x', slug: 'how-do-i-pay-an-invoice' });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toEqual([{ field: 'slug', message: 'has already been taken' }]);
    expect(
      (await api.patch(`${P}/articles/${again.body.payload.id}`, { slug: 'how-do-i-pay-an-invoice' })).status,
    ).toBe(409);
    expect(await articleRows()).toEqual(before);
    // Titles in other scripts keep their letters; a title with no letters at all gets a neutral slug.
    expect((await api.post(`${P}/articles`, { title: 'Как начать', content: 'x' })).body.payload.slug).toBe(
      'как-начать',
    );
    expect((await api.post(`${P}/articles`, { title: '???', content: 'x' })).body.payload.slug).toBe('article');
  });

  it('moves through the status lifecycle: draft, published (stamped), archived, and back', async () => {
    const { api, P } = await setUp();
    expect(
      (await api.post(`${P}/articles`, { title: 'Archived at birth', content: 'x', status: 'archived' })).status,
    ).toBe(422);
    const published = (await api.post(`${P}/articles`, { title: 'Live', content: 'x', status: 'published' })).body
      .payload;
    expect(published.status).toBe('published');
    expect(published.published_at).toEqual(expect.any(Number));
    const draft = (await api.post(`${P}/articles`, { title: 'Wip', content: 'x', status: 0 })).body.payload;
    expect(draft).toMatchObject({ status: 'draft', published_at: null });

    const url = `${P}/articles/${draft.id}`;
    expect((await api.patch(url, { status: 'published' })).body.payload).toMatchObject({
      status: 'published',
      published_at: expect.any(Number),
    });
    expect((await api.patch(url, { status: 2 })).body.payload.status).toBe('archived');
    expect((await api.patch(url, { status: 'draft' })).body.payload.status).toBe('draft');
    expect((await api.patch(url, { status: 'deleted' })).status).toBe(422);
    expect((await api.patch(url, { status: 3 })).status).toBe(422);

    const list = await api.get(`${P}/articles?status=published`);
    expect(list.body.payload.map((a: { id: number }) => a.id)).toEqual([published.id]);
    expect(list.body.meta).toEqual({
      current_page: 1,
      articles_count: 1,
      all_articles_count: 2,
      published_count: 1,
      draft_articles_count: 1,
      archived_articles_count: 0,
    });
  });

  it('lists 25 a page, filters by category, locale and words, and updates and deletes', async () => {
    const { api, P, category } = await setUp();
    for (let i = 1; i <= 27; i++) await api.post(`${P}/articles`, { title: `Article ${i}`, content: `Body ${i}` });
    const inCategory = (
      await api.post(`${P}/articles`, {
        title: 'Refunds',
        content: 'Money back within 30 days',
        category_id: category.id,
      })
    ).body.payload;
    const page1 = await api.get(`${P}/articles`);
    expect(page1.body.payload).toHaveLength(25);
    expect(page1.body.meta.articles_count).toBe(28);
    expect((await api.get(`${P}/articles?page=2`)).body.payload).toHaveLength(3);
    expect((await api.get(`${P}/articles?category_id=${category.id}`)).body.payload.map((a: any) => a.id)).toEqual([
      inCategory.id,
    ]);
    expect((await api.get(`${P}/articles?locale=pt_BR`)).body.payload.map((a: any) => a.id)).toEqual([inCategory.id]);
    expect((await api.get(`${P}/articles?query=money`)).body.payload.map((a: any) => a.id)).toEqual([inCategory.id]);
    expect((await api.get(`${P}/articles?query=%3F%3F`)).body.payload).toEqual([]);

    const patched = await api.patch(`${P}/articles/${inCategory.id}`, {
      title: 'Refunds and returns',
      category_id: null,
      description: 'How refunds work',
      position: 99,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.payload).toMatchObject({
      title: 'Refunds and returns',
      slug: 'refunds',
      category_id: null,
      category: null,
      locale: 'en',
      description: 'How refunds work',
      position: 99,
    });
    expect((await api.delete(`${P}/articles/${inCategory.id}`)).body).toEqual({});
    expect((await api.get(`${P}/articles/${inCategory.id}`)).status).toBe(404);
  });

  it('checks the category and author it is given: 404 for another account, 422 for another portal or a non-member', async () => {
    const { account, api, P } = await setUp();
    const outsider = await setUp();
    const otherPortal = await setUp(account);
    const stranger = await newUser(t, 'Stranger');
    const before = await articleRows();
    expect(
      (await api.post(`${P}/articles`, { title: 'X', content: 'x', category_id: outsider.category.id })).status,
    ).toBe(404);
    const elsewhere = await api.post(`${P}/articles`, {
      title: 'X',
      content: 'x',
      category_id: otherPortal.category.id,
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.details).toEqual([{ field: 'category_id', message: 'is a category of another portal' }]);
    const notMember = await api.post(`${P}/articles`, { title: 'X', content: 'x', author_id: stranger.id });
    expect(notMember.status).toBe(422);
    expect(notMember.body.details[0].field).toBe('author_id');
    expect(await articleRows()).toEqual(before);
    const agent = await newAgent(t, account, 'Writer');
    const byAgent = await api.post(`${P}/articles`, { title: 'Ghost', content: 'x', author_id: agent.id });
    expect(byAgent.body.payload.author).toMatchObject({ id: agent.id, name: 'Writer' });
  });

  it('refuses bad input (422) changing nothing; agents read only (403); other accounts are 404; 401 without a token', async () => {
    const { account, api, P } = await setUp();
    const outsider = await setUp();
    const agent = await newAgent(t, account);
    const mine = (await api.post(`${P}/articles`, { title: 'Mine', content: 'x' })).body.payload;
    const theirs = (await outsider.api.post(`${outsider.P}/articles`, { title: 'Theirs', content: 'x' })).body.payload;
    const before = await articleRows();
    for (const body of [
      {},
      { title: 'No content' },
      { content: 'No title' },
      { title: '  ', content: 'x' },
      { title: 'X', content: 'x', status: 'live' },
      { title: 'X', content: 'x', category_id: 'first' },
      { title: 'X', content: 'x', slug: 'no spaces please' },
      { title: 'X', content: 42 },
    ])
      expect((await api.post(`${P}/articles`, body)).status, JSON.stringify(body)).toBe(422);
    expect((await api.patch(`${P}/articles/${mine.id}`, { title: ' ' })).status).toBe(422);
    const asAgent = client(t.app, agent.token);
    expect((await asAgent.get(`${P}/articles`)).status).toBe(200);
    expect((await asAgent.get(`${P}/articles/${mine.id}`)).status).toBe(200);
    expect((await asAgent.post(`${P}/articles`, { title: 'X', content: 'x' })).status).toBe(403);
    expect((await asAgent.patch(`${P}/articles/${mine.id}`, { title: 'X' })).status).toBe(403);
    expect((await asAgent.delete(`${P}/articles/${mine.id}`)).status).toBe(403);
    expect((await api.get(`${P}/articles/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`${P}/articles/${theirs.id}`, { title: 'Mine now' })).status).toBe(404);
    expect((await api.delete(`${P}/articles/${theirs.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/portals/${outsider.portal.id}/articles`)).status).toBe(404);
    expect((await api.get(`/api/v1/portals/${outsider.portal.slug}/articles/${theirs.id}`)).status).toBe(404);
    expect((await call(t.app, { url: `${P}/articles` })).status).toBe(401);
    expect(await articleRows()).toEqual(before);
  });
});
