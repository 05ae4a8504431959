import type { Insertable, Updateable } from 'kysely';
import type { FullTextSearch } from '../../../core/db/full-text.js';
import type { Q } from '../../context.js';
import type { ArticleStatus, HelpArticlesTable } from './help-center.tables.js';

/** An article with what its presentation names: its category and its author (a user). */
function withRefs(q: Q) {
  return q
    .selectFrom('help_articles')
    .leftJoin('help_categories', 'help_categories.id', 'help_articles.category_id')
    .leftJoin('users', 'users.id', 'help_articles.author_id')
    .select([
      'help_articles.id',
      'help_articles.account_id',
      'help_articles.portal_id',
      'help_articles.category_id',
      'help_articles.author_id',
      'help_articles.title',
      'help_articles.slug',
      'help_articles.description',
      'help_articles.content',
      'help_articles.status',
      'help_articles.locale',
      'help_articles.position',
      'help_articles.views',
      'help_articles.published_at',
      'help_articles.created_at',
      'help_articles.updated_at',
      'help_categories.name as category_name',
      'help_categories.slug as category_slug',
      'help_categories.locale as category_locale',
      'users.name as author_name',
      'users.display_name as author_display_name',
      'users.email as author_email',
      'users.avatar_url as author_avatar_url',
    ]);
}

export type ArticleRow = NonNullable<Awaited<ReturnType<typeof findArticle>>>;

export async function insertArticle(q: Q, values: Insertable<HelpArticlesTable>): Promise<number> {
  const row = await q.insertInto('help_articles').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findArticle(q: Q, accountId: number, portalId: number, id: number) {
  return withRefs(q)
    .where('help_articles.account_id', '=', accountId)
    .where('help_articles.portal_id', '=', portalId)
    .where('help_articles.id', '=', id)
    .executeTakeFirst();
}

export interface ArticleFilter {
  status?: ArticleStatus;
  categoryId?: number;
  locale?: string;
  search?: FullTextSearch;
}

function filtered(q: Q, accountId: number, portalId: number, filter: ArticleFilter) {
  let query = withRefs(q)
    .where('help_articles.account_id', '=', accountId)
    .where('help_articles.portal_id', '=', portalId);
  if (filter.status) query = query.where('help_articles.status', '=', filter.status);
  if (filter.categoryId !== undefined) query = query.where('help_articles.category_id', '=', filter.categoryId);
  if (filter.locale) query = query.where('help_articles.locale', '=', filter.locale);
  if (filter.search) query = query.where(filter.search.matches);
  return query;
}

/** A page of a portal's articles: by relevance when searching, else in their order. */
export async function listArticles(
  q: Q,
  accountId: number,
  portalId: number,
  filter: ArticleFilter,
  page: { limit: number; offset: number },
) {
  let query = filtered(q, accountId, portalId, filter);
  if (filter.search) query = query.orderBy(filter.search.rank);
  return query
    .orderBy('help_articles.position')
    .orderBy('help_articles.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countArticles(q: Q, accountId: number, portalId: number, filter: ArticleFilter) {
  const row = await filtered(q, accountId, portalId, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A portal's articles counted by status. */
export async function countByStatus(q: Q, accountId: number, portalId: number) {
  const rows = await q
    .selectFrom('help_articles')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('portal_id', '=', portalId)
    .groupBy('status')
    .execute();
  const counts: Record<ArticleStatus, number> = { draft: 0, published: 0, archived: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** The slugs of the portal that are `base` or `base-…` (to pick a free one). */
export async function slugsLike(q: Q, portalId: number, base: string): Promise<Set<string>> {
  const rows = await q
    .selectFrom('help_articles')
    .select('slug')
    .where('portal_id', '=', portalId)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((r) => r.slug));
}

export async function findIdBySlug(q: Q, portalId: number, slug: string) {
  return q
    .selectFrom('help_articles')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** The position after the portal's last article. */
export async function nextPosition(q: Q, accountId: number, portalId: number): Promise<number> {
  const row = await q
    .selectFrom('help_articles')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('account_id', '=', accountId)
    .where('portal_id', '=', portalId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 1 : Number(row.last) + 1;
}

export async function updateArticle(q: Q, accountId: number, id: number, values: Updateable<HelpArticlesTable>) {
  await q.updateTable('help_articles').set(values).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function deleteArticle(q: Q, accountId: number, id: number) {
  await q.deleteFrom('help_articles').where('account_id', '=', accountId).where('id', '=', id).execute();
}
