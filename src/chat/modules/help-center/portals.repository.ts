import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { ArticleStatus, HelpPortalsTable } from './help-center.tables.js';

export async function insertPortal(q: Q, values: Insertable<HelpPortalsTable>) {
  return q.insertInto('help_portals').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findPortal(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('help_portals')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findPortalBySlugIn(q: Q, accountId: number, slug: string) {
  return q
    .selectFrom('help_portals')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** The portal with this slug in the whole installation (slugs are unique across accounts). */
export async function findPortalBySlug(q: Q, slug: string) {
  return q.selectFrom('help_portals').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** The portal serving this custom domain, in any account. */
export async function findPortalByDomain(q: Q, domain: string) {
  return q.selectFrom('help_portals').selectAll().where('custom_domain', '=', domain).executeTakeFirst();
}

export async function listPortals(q: Q, accountId: number) {
  return q.selectFrom('help_portals').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function updatePortal(q: Q, accountId: number, id: number, values: Updateable<HelpPortalsTable>) {
  return q
    .updateTable('help_portals')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the portal; its categories and articles go with it (foreign keys). */
export async function deletePortal(q: Q, accountId: number, id: number) {
  await q.deleteFrom('help_portals').where('account_id', '=', accountId).where('id', '=', id).execute();
}

export interface ArticleCountRow {
  portal_id: number;
  status: ArticleStatus;
  locale: string;
  n: number;
}

/** Articles of the account's portals (or of some of them), counted by portal, status and locale. */
export async function countArticles(q: Q, accountId: number, portalIds: number[]): Promise<ArticleCountRow[]> {
  if (portalIds.length === 0) return [];
  const rows = await q
    .selectFrom('help_articles')
    .select(['portal_id', 'status', 'locale', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('portal_id', 'in', portalIds)
    .groupBy(['portal_id', 'status', 'locale'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

export interface CategoryCountRow {
  portal_id: number;
  locale: string;
  n: number;
}

/** Categories of the account's portals (or of some of them), counted by portal and locale. */
export async function countCategories(q: Q, accountId: number, portalIds: number[]): Promise<CategoryCountRow[]> {
  if (portalIds.length === 0) return [];
  const rows = await q
    .selectFrom('help_categories')
    .select(['portal_id', 'locale', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('portal_id', 'in', portalIds)
    .groupBy(['portal_id', 'locale'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
