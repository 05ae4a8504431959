import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;
let portal: { id: number; slug: string };
let P: string;
const ids: Record<string, number> = {};

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const page = (url: string, headers: Record<string, string> = BROWSER) => call(t.app, { url, headers });
const views = async (id: number) =>
  Number((await t.db.selectFrom('help_articles').select('views').where('id', '=', id).executeTakeFirstOrThrow()).views);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  const api = client(t.app, account.admin.token);
  portal = (
    await api.post(`${account.path}/portals`, {
      name: 'Acme <Help>',
      slug: `acme-${Date.now().toString(36)}`,
      color: '#0F766E',
      homepage_link: 'https://acme.example.test',
      header_text: 'Hi! How can we help?',
      config: { default_locale: 'en' },
    })
  ).body;
  P = `${account.path}/portals/${portal.id}`;
  const billing = (await api.post(`${P}/categories`, { name: 'Billing', description: 'Invoices & payments' })).body
    .payload;
  const ptCategory = (await api.post(`${P}/categories`, { name: 'Primeiros passos', locale: 'pt_BR' })).body.payload;
  const article = async (key: string, body: Record<string, unknown>) => {
    const res = await api.post(`${P}/articles`, { status: 'published', ...body });
    expect(res.status, res.text).toBe(200);
    ids[key] = res.body.payload.id;
  };
  await article('invoice', {
    title: 'Paying an invoice',
    description: 'Cards, transfers and <b>boletos</b>',
    category_id: billing.id,
    content: [
      '## Steps',
      '',
      '1. Open **Billing**.',
      '2. Choose *Pay now*.',
      '',
      '<script>document.title = "pwned"</script>',
      '<img src="https://cdn.example.test/x.png" onerror="alert(1)" alt="Pay button">',
      '[Click me](javascript:alert(2))',
      '<a href="https://example.test" onclick="steal()">Terms</a>',
      '',
      '```',
      'const x = "<b>";',
      '```',
    ].join('\n'),
  });
  await article('escaped', { title: 'Tags like <script> in a title', content: 'Plain text', category_id: billing.id });
  await article('draft', {
    title: 'Secret draft',
    content: 'unreleased zebra feature',
    status: 'draft',
    category_id: billing.id,
  });
  await article('archived', { title: 'Old archived', content: 'obsolete zebra', category_id: billing.id });
  await api.patch(`${P}/articles/${ids.archived}`, { status: 'archived' });
  await article('loose', { title: 'Contact us', content: 'Write to support.' });
  await article('pt', {
    title: 'Como começar',
    content: 'Educação financeira para iniciantes',
    category_id: ptCategory.id,
  });
});
afterAll(async () => {
  await t.close();
});

function expectHtml(res: { status: number; headers: Record<string, unknown>; text: string }) {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toContain('script-src');
  expect(csp).not.toContain('unsafe-inline');
  expect(res.text.startsWith('<!doctype html>')).toBe(true);
}

describe("the readers' pages", () => {
  it('serve the home page with the published articles by category, in the portal language and colors', async () => {
    const res = await page(`/hc/${portal.slug}`);
    expect(res.status).toBe(200);
    expectHtml(res);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const html = res.text;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Hi! How can we help?</h1>');
    expect(html).toContain('Acme &lt;Help&gt;');
    expect(html).not.toContain('Acme <Help>');
    expect(html).toContain('--brand:#0f766e');
    expect(html).toMatch(/<label[^>]*for="q"[^>]*>Search articles<\/label>/);
    expect(html).toContain('<h2 id="c');
    expect(html).toContain('>Billing</a></h2>');
    expect(html).toContain('Paying an invoice');
    expect(html).toContain('Tags like &lt;script&gt; in a title');
    expect(html).toContain('Contact us');
    expect(html).toContain('href="https://acme.example.test"');
    // Other locales are linked; their categories are on their own home page.
    expect(html).not.toContain('Primeiros passos');
    expect(html).toContain(`href="/hc/${portal.slug}/pt_BR"`);
    for (const hidden of ['Secret draft', 'Old archived']) expect(html).not.toContain(hidden);

    const pt = await page(`/hc/${portal.slug}/pt-br`);
    expect(pt.status).toBe(200);
    expect(pt.text).toContain('<html lang="pt-BR">');
    expect(pt.text).toContain('Primeiros passos');
    expect(pt.text).toContain('Buscar artigos');
  });

  it('render an article from sanitised Markdown: no script, no event handler, no javascript: link', async () => {
    const res = await page(`/hc/${portal.slug}/articles/paying-an-invoice`);
    expect(res.status).toBe(200);
    expectHtml(res);
    const html = res.text;
    expect(html).toContain('<h1>Paying an invoice</h1>');
    expect(html).toContain('<p class="lead">Cards, transfers and &lt;b&gt;boletos&lt;/b&gt;</p>');
    expect(html).toContain('<h3>Steps</h3>');
    expect(html).toContain('<strong>Billing</strong>');
    expect(html).toContain('<img src="https://cdn.example.test/x.png" alt="Pay button" loading="lazy" />');
    expect(html).toContain('<a href="https://example.test" rel="nofollow noopener noreferrer">Terms</a>');
    expect(html).toContain('<pre><code>const x = "&lt;b&gt;";');
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html).not.toContain('pwned');
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/href="javascript:/i);
    // Breadcrumbs to the home page and the category.
    expect(html).toMatch(
      /<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="\/hc\/[^"]+">Home<\/a><\/li><li><a href="[^"]+\/categories\/billing">Billing<\/a><\/li><li aria-current="page">Paying an invoice<\/li>/,
    );
  });

  it('count a view per read (not per HEAD), and answer 304 to a known ETag', async () => {
    const url = `/hc/${portal.slug}/articles/contact-us`;
    const before = await views(ids.loose);
    const first = await page(url);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    await page(url);
    expect(await views(ids.loose)).toBe(before + 2);
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(await views(ids.loose)).toBe(before + 2);
    const cached = await page(url, { ...BROWSER, 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(await views(ids.loose)).toBe(before + 3);
    const shown = await client(t.app, account.admin.token).get(`${P}/articles/${ids.loose}`);
    expect(shown.body.payload.views).toBe(before + 3);
  });

  it('list a category, and search the published articles through the full-text index', async () => {
    const category = await page(`/hc/${portal.slug}/en/categories/billing`);
    expect(category.status).toBe(200);
    expectHtml(category);
    expect(category.text).toContain('<h1>Billing</h1>');
    expect(category.text).toContain('Paying an invoice');
    expect(category.text).not.toContain('Secret draft');

    const found = await page(`/hc/${portal.slug}?q=boleto`);
    expect(found.status).toBe(200);
    expectHtml(found);
    expect(found.text).toContain('Search results for “boleto”');
    expect(found.text).toContain('1 article found');
    expect(found.text).toContain(`href="/hc/${portal.slug}/articles/paying-an-invoice"`);
    expect(found.text).toContain('value="boleto"');
    // A word of a draft or an archived article finds nothing; the query is escaped where it is shown.
    const zebra = await page(`/hc/${portal.slug}?q=zebra`);
    expect(zebra.text).toContain('No articles match your search.');
    expect(zebra.text).not.toMatch(/Secret draft|Old archived/);
    const hostile = await page(`/hc/${portal.slug}?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.status).toBe(200);
    expect(hostile.text.toLowerCase()).not.toContain('<script');
    expect(hostile.text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // Accents do not matter; words in the body count.
    const accents = await page(`/hc/${portal.slug}?q=EDUCACAO`);
    expect(accents.text).toContain('Como começar');
  });

  it('answer 404 for drafts, archived articles and portals, unknown pages: HTML for browsers, JSON otherwise', async () => {
    for (const url of [
      `/hc/${portal.slug}/articles/secret-draft`,
      `/hc/${portal.slug}/articles/old-archived`,
      `/hc/${portal.slug}/articles/nothing-here`,
      `/hc/${portal.slug}/en/categories/nothing`,
      `/hc/${portal.slug}/xx`,
    ]) {
      const html = await page(url);
      expect(html.status, url).toBe(404);
      expectHtml(html);
      expect(html.headers['cache-control']).toBe('no-store');
      expect(html.text).toContain('Page not found');
      expect(html.text).toContain('Acme &lt;Help&gt;');
      const json = await call(t.app, { url });
      expect(json.status).toBe(404);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    const unknown = await page('/hc/no-such-portal');
    expect(unknown.status).toBe(404);
    expectHtml(unknown);
    const api = client(t.app, account.admin.token);
    await api.patch(P, { archived: true });
    expect((await page(`/hc/${portal.slug}`)).status).toBe(404);
    expect((await call(t.app, { url: `/public/api/v1/portals/${portal.slug}/articles` })).status).toBe(404);
    await api.patch(P, { archived: false });
    expect((await page(`/hc/${portal.slug}`)).status).toBe(200);
  });
});

describe('GET /public/api/v1/portals/{slug}/articles', () => {
  it('lists the published articles only, without credentials, by words, category or locale', async () => {
    const res = await call(t.app, { url: `/public/api/v1/portals/${portal.slug}/articles` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const titles = res.body.payload.map((a: { title: string }) => a.title).sort();
    expect(titles).toEqual(['Como começar', 'Contact us', 'Paying an invoice', 'Tags like <script> in a title']);
    expect(res.body.meta).toEqual({ current_page: 1, articles_count: 4 });
    const invoice = res.body.payload.find((a: { id: number }) => a.id === ids.invoice);
    expect(invoice).toEqual({
      id: ids.invoice,
      slug: 'paying-an-invoice',
      title: 'Paying an invoice',
      description: 'Cards, transfers and <b>boletos</b>',
      content: expect.stringContaining('## Steps'),
      locale: 'en',
      views: expect.any(Number),
      category: { id: expect.any(Number), name: 'Billing', slug: 'billing', locale: 'en' },
      author: { name: 'Admin', available_name: 'Admin', thumbnail: '' },
      url: `http://chat.test/hc/${portal.slug}/articles/paying-an-invoice`,
      published_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expect(JSON.stringify(res.body)).not.toContain(account.admin.email);
    const byWords = await call(t.app, { url: `/public/api/v1/portals/${portal.slug}/articles?query=iniciantes` });
    expect(byWords.body.payload.map((a: { id: number }) => a.id)).toEqual([ids.pt]);
    const byCategory = await call(t.app, {
      url: `/public/api/v1/portals/${portal.slug}/articles?category_slug=billing`,
    });
    expect(byCategory.body.payload.map((a: { id: number }) => a.id).sort()).toEqual([ids.invoice, ids.escaped].sort());
    const byLocale = await call(t.app, { url: `/public/api/v1/portals/${portal.slug}/articles?locale=pt_BR` });
    expect(byLocale.body.payload.map((a: { id: number }) => a.id)).toEqual([ids.pt]);
    expect((await call(t.app, { url: '/public/api/v1/portals/nope/articles' })).status).toBe(404);
  });
});
