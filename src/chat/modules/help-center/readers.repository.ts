import type { FullTextSearch } from '../../../core/db/full-text.js';
import type { Q } from '../../context.js';

/*
 * What readers see: portals that are not archived, and their published articles only. Lookups
 * here go by the public slugs of the pages, not by account: the portal's id scopes everything.
 */

export async function findOpenPortal(q: Q, slug: string) {
  return q.selectFrom('help_portals').selectAll().where('slug', '=', slug).where('archived', '=', 0).executeTakeFirst();
}

/** Locales with a category or a published article in the portal. */
export async function localesInUse(q: Q, portalId: number): Promise<string[]> {
  const [categories, articles] = await Promise.all([
    q.selectFrom('help_categories').select('locale').distinct().where('portal_id', '=', portalId).execute(),
    q
      .selectFrom('help_articles')
      .select('locale')
      .distinct()
      .where('portal_id', '=', portalId)
      .where('status', '=', 'published')
      .execute(),
  ]);
  return [...new Set([...categories, ...articles].map((r) => r.locale))];
}

export async function categoriesOf(q: Q, portalId: number, locale: string) {
  return q
    .selectFrom('help_categories')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('locale', '=', locale)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function findCategoryBySlug(q: Q, portalId: number, locale: string, slug: string) {
  return q
    .selectFrom('help_categories')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('locale', '=', locale)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export interface PublishedFilter {
  /** A category's id, or null for the articles without one. */
  categoryId?: number | null;
  locale?: string;
  search?: FullTextSearch;
}

/** The published articles of a portal, with what readers are shown of them (never an e-mail). */
function published(q: Q, portalId: number, filter: PublishedFilter) {
  let query = q
    .selectFrom('help_articles')
    .leftJoin('help_categories', 'help_categories.id', 'help_articles.category_id')
    .leftJoin('users', 'users.id', 'help_articles.author_id')
    .where('help_articles.portal_id', '=', portalId)
    .where('help_articles.status', '=', 'published');
  if (filter.categoryId === null) query = query.where('help_articles.category_id', 'is', null);
  else if (filter.categoryId !== undefined) query = query.where('help_articles.category_id', '=', filter.categoryId);
  if (filter.locale) query = query.where('help_articles.locale', '=', filter.locale);
  if (filter.search) query = query.where(filter.search.matches);
  return query;
}

function withColumns(q: Q, portalId: number, filter: PublishedFilter) {
  return published(q, portalId, filter).select([
    'help_articles.id',
    'help_articles.portal_id',
    'help_articles.category_id',
    'help_articles.title',
    'help_articles.slug',
    'help_articles.description',
    'help_articles.content',
    'help_articles.locale',
    'help_articles.views',
    'help_articles.published_at',
    'help_articles.updated_at',
    'help_categories.name as category_name',
    'help_categories.slug as category_slug',
    'help_categories.locale as category_locale',
    'users.name as author_name',
    'users.display_name as author_display_name',
    'users.avatar_url as author_avatar_url',
  ]);
}

/** A page of published articles: by relevance when searching, else in their order. */
export async function publishedArticles(
  q: Q,
  portalId: number,
  filter: PublishedFilter,
  page: { limit: number; offset: number },
) {
  let query = withColumns(q, portalId, filter);
  if (filter.search) query = query.orderBy(filter.search.rank);
  return query
    .orderBy('help_articles.position')
    .orderBy('help_articles.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type PublishedArticle = Awaited<ReturnType<typeof publishedArticles>>[number];

export async function findPublishedBySlug(q: Q, portalId: number, slug: string) {
  return withColumns(q, portalId, {}).where('help_articles.slug', '=', slug).executeTakeFirst();
}

export async function countPublished(q: Q, portalId: number, filter: PublishedFilter): Promise<number> {
  const row = await published(q, portalId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Published articles per category of the portal. */
export async function countPublishedByCategory(q: Q, portalId: number): Promise<Map<number, number>> {
  const rows = await q
    .selectFrom('help_articles')
    .select(['category_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('portal_id', '=', portalId)
    .where('status', '=', 'published')
    .where('category_id', 'is not', null)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.category_id), Number(r.n)]));
}

/** One more reader of the article (a single atomic update; the indexed text is not touched). */
export async function countView(q: Q, articleId: number) {
  await q
    .updateTable('help_articles')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', articleId)
    .execute();
}
