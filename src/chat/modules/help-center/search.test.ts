import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { fullTextSearch } from '../../../core/db/full-text.js';
import { ARTICLE_TEXT } from './help-center.tables.js';

/**
 * Search through the database's full-text index (SQLite FTS5, PostgreSQL tsvector + GIN), the same
 * answers on both: words anywhere in the title, description or body, by prefix, without regard to
 * accents or case, every word required, titles first; the index follows edits and deletions.
 */

let t: ChatTestApp;
let account: TestAccount;
let portal: { id: number; slug: string };
let P: string;
const ids: Record<string, number> = {};

const search = async (words: string) => {
  const res = await call(t.app, {
    url: `/public/api/v1/portals/${portal.slug}/articles?query=${encodeURIComponent(words)}`,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.payload.map((a: { id: number }) => a.id) as number[];
};

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  const api = client(t.app, account.admin.token);
  portal = (await api.post(`${account.path}/portals`, { name: 'KB', slug: `kb-search-${Date.now().toString(36)}` }))
    .body;
  P = `${account.path}/portals/${portal.id}`;
  const add = async (key: string, body: Record<string, unknown>) => {
    const res = await api.post(`${P}/articles`, { status: 'published', ...body });
    expect(res.status, res.text).toBe(200);
    ids[key] = res.body.payload.id;
  };
  await add('title', { title: 'Exporting your invoices', content: 'A CSV file with every line.' });
  await add('body', {
    title: 'Monthly reports',
    content: 'Reports include the invoices of the month, exported nightly.',
  });
  await add('accents', { title: 'Educação financeira', description: 'Café com orçamento', content: 'Conteúdo' });
  await add('plain', { title: 'Resume a paused subscription', content: 'Cafe owners ask this often.' });
  await add('draft', { title: 'Invoices v2 draft', content: 'invoices everywhere', status: 'draft' });
});
afterAll(async () => {
  await t.close();
});

describe('full-text search of articles', () => {
  it('finds words in the body, by prefix and in any case, with matches in titles first', async () => {
    expect(await search('invoices')).toEqual([ids.title, ids.body]);
    expect(await search('INVOICE')).toEqual([ids.title, ids.body]);
    expect(await search('export')).toEqual([ids.title, ids.body]);
    expect(await search('nightly')).toEqual([ids.body]);
    expect(await search('csv')).toEqual([ids.title]);
  });

  it('ignores accents in both directions', async () => {
    expect(await search('educacao')).toEqual([ids.accents]);
    expect(await search('EDUCAÇÃO')).toEqual([ids.accents]);
    expect(await search('orcamento')).toEqual([ids.accents]);
    expect((await search('café')).sort()).toEqual([ids.accents, ids.plain].sort());
    expect((await search('cafe')).sort()).toEqual([ids.accents, ids.plain].sort());
    expect(await search('résumé')).toEqual([ids.plain]);
  });

  it('needs every word, and takes query syntax as plain words', async () => {
    expect(await search('invoices nightly')).toEqual([ids.body]);
    expect(await search('invoices zebra')).toEqual([]);
    expect(await search('invoices OR zebra')).toEqual([]);
    expect(await search('(invoices)')).toEqual([ids.title, ids.body]);
    expect(await search('NEAR(invoices monthly)')).toEqual([]);
    // Nothing searchable in them: no match, and never an error.
    for (const words of ['"', '*', ':*', '!!!', '\u0301', "'"]) expect(await search(words), words).toEqual([]);
    expect(await search("' OR 1=1 --")).toEqual([]);
  });

  it('follows edits, status changes and deletions', async () => {
    const api = client(t.app, account.admin.token);
    await api.patch(`${P}/articles/${ids.plain}`, { content: 'Now about kangaroos.' });
    expect(await search('owners')).toEqual([]);
    expect(await search('kangaroo')).toEqual([ids.plain]);
    await api.patch(`${P}/articles/${ids.plain}`, { title: 'Marsupials' });
    expect(await search('subscription')).toEqual([]);
    expect(await search('marsupial')).toEqual([ids.plain]);
    await api.patch(`${P}/articles/${ids.draft}`, { status: 'published' });
    expect(await search('everywhere')).toEqual([ids.draft]);
    await api.delete(`${P}/articles/${ids.draft}`);
    expect(await search('everywhere')).toEqual([]);
    // A deleted portal takes its articles out of the index too (foreign-key cascade).
    const other = (await api.post(`${account.path}/portals`, { name: 'Gone', slug: `gone-${Date.now().toString(36)}` }))
      .body;
    await api.post(`${account.path}/portals/${other.id}/articles`, {
      title: 'Wombats',
      content: 'x',
      status: 'published',
    });
    await api.delete(`${account.path}/portals/${other.id}`);
    if (t.dialect === 'sqlite') {
      // FTS5 compares its index with the table's rows and throws on any difference.
      await sql`insert into help_articles_fts (help_articles_fts) values ('integrity-check')`.execute(t.db);
    }
    const left = await t.db
      .selectFrom('help_articles')
      .select('id')
      .where(fullTextSearch(t.dialect, ARTICLE_TEXT, 'wombats')!.matches)
      .execute();
    expect(left).toEqual([]);
  });

  it("runs through the dialect's full-text index", async () => {
    const found = fullTextSearch(t.dialect, ARTICLE_TEXT, 'invoices')!;
    const query = t.db.selectFrom('help_articles').select('id').where(found.matches).compile();
    if (t.dialect === 'sqlite') {
      const plan = await t.db.executeQuery({ ...query, sql: `explain query plan ${query.sql}` });
      expect(JSON.stringify(plan.rows)).toMatch(/VIRTUAL TABLE INDEX/);
    } else {
      const plan = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery({ ...query, sql: `explain ${query.sql}` });
      });
      expect(JSON.stringify(plan.rows)).toContain('help_articles_fts_idx');
    }
  });
});
