import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { HelpCategoriesTable } from './help-center.tables.js';

export async function insertCategory(q: Q, values: Insertable<HelpCategoriesTable>) {
  return q.insertInto('help_categories').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A category of the account (in any of its portals). */
export async function findCategory(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('help_categories')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
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

/** A portal's categories (of one locale, when given), in their order. */
export async function listCategories(q: Q, accountId: number, portalId: number, locale?: string) {
  let query = q
    .selectFrom('help_categories')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('portal_id', '=', portalId);
  if (locale !== undefined) query = query.where('locale', '=', locale);
  return query.orderBy('position').orderBy('id').execute();
}

/** The position after the portal's last category. */
export async function nextPosition(q: Q, accountId: number, portalId: number): Promise<number> {
  const row = await q
    .selectFrom('help_categories')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('account_id', '=', accountId)
    .where('portal_id', '=', portalId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 1 : Number(row.last) + 1;
}

/** Articles per category, for some categories of the account. */
export async function countArticlesByCategory(q: Q, accountId: number, categoryIds: number[]) {
  if (categoryIds.length === 0) return new Map<number, number>();
  const rows = await q
    .selectFrom('help_articles')
    .select(['category_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('category_id', 'in', categoryIds)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.category_id), Number(r.n)]));
}

export async function updateCategory(q: Q, accountId: number, id: number, values: Updateable<HelpCategoriesTable>) {
  return q
    .updateTable('help_categories')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** An article's locale is its category's: moves the category's articles to its new locale. */
export async function setArticlesLocale(q: Q, accountId: number, categoryId: number, locale: string) {
  await q
    .updateTable('help_articles')
    .set({ locale })
    .where('account_id', '=', accountId)
    .where('category_id', '=', categoryId)
    .execute();
}

/** Deletes the category; its articles stay, without a category (foreign key). */
export async function deleteCategory(q: Q, accountId: number, id: number) {
  await q.deleteFrom('help_categories').where('account_id', '=', accountId).where('id', '=', id).execute();
}
