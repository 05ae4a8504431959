import type { Updateable } from 'kysely';
import { conflict, invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import * as repo from './categories.repository.js';
import type { CategoryCreateBody, CategoryUpdateBody } from './categories.schema.js';
import type { HelpCategoriesTable, HelpCategory, HelpPortal } from './help-center.tables.js';
import { pageSlug, slugify } from './help-center.slugs.js';
import { normalizeLocale, type PortalsService } from './portals.service.js';

export interface CategoryView {
  category: HelpCategory;
  articlesCount: number;
}

const slugTaken = () =>
  conflict('A category with this slug already exists in this portal and locale', [
    { field: 'slug', message: 'has already been taken' },
  ]);

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidField('name', "can't be blank");
  return trimmed;
}

/**
 * Categories of a portal. The slug comes from the name unless given, and is unique in the portal
 * and locale (409): two categories of the same name in one locale would confuse readers. A
 * renamed category keeps its slug, so readers' links keep working.
 */
export class CategoriesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly portals: PortalsService,
  ) {}

  async list(ctx: AccountContext, portalRef: string, filter: { locale?: string } = {}): Promise<CategoryView[]> {
    const portal = await this.portals.find(this.deps.db, ctx.accountId, portalRef);
    const locale = filter.locale === undefined ? undefined : normalizeLocale(filter.locale);
    const categories = await repo.listCategories(this.deps.db, ctx.accountId, portal.id, locale);
    return this.withCounts(this.deps.db, ctx.accountId, categories);
  }

  async get(ctx: AccountContext, portalRef: string, id: number): Promise<CategoryView> {
    const portal = await this.portals.find(this.deps.db, ctx.accountId, portalRef);
    const category = await this.find(this.deps.db, ctx.accountId, portal, id);
    return (await this.withCounts(this.deps.db, ctx.accountId, [category]))[0];
  }

  /**
   * A category of the account for an article of `portal`: 404 when the account has no such
   * category (another account's ids included), 422 when it belongs to another of its portals.
   */
  async requireInPortal(q: Q, accountId: number, portal: HelpPortal, id: number): Promise<HelpCategory> {
    const category = await repo.findCategory(q, accountId, id);
    if (!category) throw notFound('Category');
    if (category.portal_id !== portal.id) throw invalidField('category_id', 'is a category of another portal');
    return category;
  }

  async create(ctx: AccountContext, portalRef: string, body: CategoryCreateBody): Promise<CategoryView> {
    const name = cleanName(body.name);
    const category = await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const locale = normalizeLocale(body.locale ?? portal.default_locale);
      const slug = body.slug !== undefined ? pageSlug(body.slug) : slugify(name) || 'category';
      if (await repo.findCategoryBySlug(trx, portal.id, locale, slug)) throw slugTaken();
      const now = Date.now();
      return repo.insertCategory(trx, {
        account_id: ctx.accountId,
        portal_id: portal.id,
        name,
        slug,
        description: body.description ?? null,
        locale,
        position: body.position ?? (await repo.nextPosition(trx, ctx.accountId, portal.id)),
        created_at: now,
        updated_at: now,
      });
    });
    return { category, articlesCount: 0 };
  }

  async update(ctx: AccountContext, portalRef: string, id: number, body: CategoryUpdateBody): Promise<CategoryView> {
    const category = await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const current = await this.find(trx, ctx.accountId, portal, id);
      const changes: Updateable<HelpCategoriesTable> = {};
      if (body.name !== undefined) changes.name = cleanName(body.name);
      if (body.description !== undefined) changes.description = body.description;
      if (body.position !== undefined) changes.position = body.position;
      const locale = body.locale === undefined ? current.locale : normalizeLocale(body.locale);
      const slug = body.slug === undefined ? current.slug : pageSlug(body.slug);
      if (locale !== current.locale || slug !== current.slug) {
        const other = await repo.findCategoryBySlug(trx, portal.id, locale, slug);
        if (other && other.id !== current.id) throw slugTaken();
        changes.locale = locale;
        changes.slug = slug;
      }
      if (Object.keys(changes).length === 0) return current;
      const updated = await repo.updateCategory(trx, ctx.accountId, current.id, { ...changes, updated_at: Date.now() });
      if (locale !== current.locale) await repo.setArticlesLocale(trx, ctx.accountId, current.id, locale);
      return updated ?? current;
    });
    return (await this.withCounts(this.deps.db, ctx.accountId, [category]))[0];
  }

  /** Deletes the category; its articles stay in the portal, without a category. */
  async delete(ctx: AccountContext, portalRef: string, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const category = await this.find(trx, ctx.accountId, portal, id);
      await repo.deleteCategory(trx, ctx.accountId, category.id);
    });
  }

  private async find(q: Q, accountId: number, portal: HelpPortal, id: number): Promise<HelpCategory> {
    const category = await repo.findCategory(q, accountId, id);
    if (!category || category.portal_id !== portal.id) throw notFound('Category');
    return category;
  }

  private async withCounts(q: Q, accountId: number, categories: HelpCategory[]): Promise<CategoryView[]> {
    const counts = await repo.countArticlesByCategory(
      q,
      accountId,
      categories.map((c) => c.id),
    );
    return categories.map((category) => ({ category, articlesCount: counts.get(category.id) ?? 0 }));
  }
}
