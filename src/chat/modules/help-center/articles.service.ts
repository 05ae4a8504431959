import type { Updateable } from 'kysely';
import { fullTextSearch } from '../../../core/db/full-text.js';
import { conflict, invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { AgentsService } from '../agents/agents.service.js';
import * as repo from './articles.repository.js';
import type { ArticleRow } from './articles.repository.js';
import type { ArticleCreateBody, ArticleUpdateBody } from './articles.schema.js';
import type { CategoriesService } from './categories.service.js';
import { ARTICLE_TEXT, type ArticleStatus, type HelpArticlesTable, type HelpPortal } from './help-center.tables.js';
import { firstFreeSlug, pageSlug, slugify } from './help-center.slugs.js';
import { normalizeLocale, type PortalsService } from './portals.service.js';

export const ARTICLES_PER_PAGE = 25;
const STATUSES: readonly ArticleStatus[] = ['draft', 'published', 'archived'];

export interface ArticleView {
  article: ArticleRow;
  portal: HelpPortal;
}

export interface ArticleListQuery {
  page?: number;
  category_id?: number;
  status?: ArticleStatus;
  locale?: string;
  query?: string;
}

/** A status by name or by Chatwoot's number (0 draft, 1 published, 2 archived). */
const statusOf = (value: string | number): ArticleStatus =>
  typeof value === 'number' ? STATUSES[value] : (value as ArticleStatus);

const slugTaken = () =>
  conflict('An article with this slug already exists in this portal', [
    { field: 'slug', message: 'has already been taken' },
  ]);

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === '') throw invalidField('title', "can't be blank");
  return trimmed;
}

/**
 * Articles of a portal, written in Markdown. Status lifecycle: an article is created as a draft
 * (the default) or published; afterwards it may move between draft, published and archived in
 * any direction. Readers see published articles only; `published_at` records when an article
 * last became published. The slug comes from the title unless given (`-2`, `-3`... when taken)
 * and stays when the title changes; a slug given explicitly must be free (409).
 */
export class ArticlesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly portals: PortalsService,
    private readonly categories: CategoriesService,
    private readonly agents: AgentsService,
  ) {}

  async list(ctx: AccountContext, portalRef: string, query: ArticleListQuery) {
    const db = this.deps.db;
    const portal = await this.portals.find(db, ctx.accountId, portalRef);
    const search = query.query ? fullTextSearch(this.deps.dialect, ARTICLE_TEXT, query.query) : null;
    const filter: repo.ArticleFilter = {
      status: query.status,
      categoryId: query.category_id,
      locale: query.locale === undefined ? undefined : normalizeLocale(query.locale),
      ...(search ? { search } : {}),
    };
    const page = Math.max(1, query.page ?? 1);
    // Words that hold nothing searchable match nothing.
    const empty = query.query !== undefined && query.query.trim() !== '' && !search;
    const [rows, count, byStatus] = await Promise.all([
      empty
        ? Promise.resolve([])
        : repo.listArticles(db, ctx.accountId, portal.id, filter, {
            limit: ARTICLES_PER_PAGE,
            offset: (page - 1) * ARTICLES_PER_PAGE,
          }),
      empty ? Promise.resolve(0) : repo.countArticles(db, ctx.accountId, portal.id, filter),
      repo.countByStatus(db, ctx.accountId, portal.id),
    ]);
    return { articles: rows.map((article) => ({ article, portal })), page, count, byStatus };
  }

  async get(ctx: AccountContext, portalRef: string, id: number): Promise<ArticleView> {
    const portal = await this.portals.find(this.deps.db, ctx.accountId, portalRef);
    return { article: await this.find(this.deps.db, ctx.accountId, portal, id), portal };
  }

  async create(ctx: AccountContext, portalRef: string, body: ArticleCreateBody): Promise<ArticleView> {
    const title = cleanTitle(body.title);
    const status = statusOf(body.status ?? 'draft');
    return this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const category =
        body.category_id == null
          ? null
          : await this.categories.requireInPortal(trx, ctx.accountId, portal, body.category_id);
      const authorId = body.author_id ?? ctx.userId;
      if (body.author_id != null) await this.agents.requireMembers(trx, ctx.accountId, [body.author_id], 'author_id');
      let slug: string;
      if (body.slug !== undefined) {
        slug = pageSlug(body.slug);
        if (await repo.findIdBySlug(trx, portal.id, slug)) throw slugTaken();
      } else {
        const base = slugify(title) || 'article';
        slug = firstFreeSlug(base, await repo.slugsLike(trx, portal.id, base));
      }
      const now = Date.now();
      const id = await repo.insertArticle(trx, {
        account_id: ctx.accountId,
        portal_id: portal.id,
        category_id: category?.id ?? null,
        author_id: authorId,
        title,
        slug,
        description: body.description ?? null,
        content: body.content,
        status,
        locale: category?.locale ?? portal.default_locale,
        position: body.position ?? (await repo.nextPosition(trx, ctx.accountId, portal.id)),
        published_at: status === 'published' ? now : null,
        created_at: now,
        updated_at: now,
      });
      return { article: await this.find(trx, ctx.accountId, portal, id), portal };
    });
  }

  async update(ctx: AccountContext, portalRef: string, id: number, body: ArticleUpdateBody): Promise<ArticleView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const current = await this.find(trx, ctx.accountId, portal, id);
      const changes: Updateable<HelpArticlesTable> = {};
      if (body.title !== undefined) changes.title = cleanTitle(body.title);
      if (body.content !== undefined) changes.content = body.content;
      if (body.description !== undefined) changes.description = body.description;
      if (body.position !== undefined) changes.position = body.position;
      if (body.category_id !== undefined) {
        const category =
          body.category_id === null
            ? null
            : await this.categories.requireInPortal(trx, ctx.accountId, portal, body.category_id);
        changes.category_id = category?.id ?? null;
        changes.locale = category?.locale ?? portal.default_locale;
      }
      if (body.author_id !== undefined) {
        if (body.author_id !== null)
          await this.agents.requireMembers(trx, ctx.accountId, [body.author_id], 'author_id');
        changes.author_id = body.author_id;
      }
      if (body.slug !== undefined) {
        const slug = pageSlug(body.slug);
        const holder = await repo.findIdBySlug(trx, portal.id, slug);
        if (holder && Number(holder.id) !== current.id) throw slugTaken();
        changes.slug = slug;
      }
      const now = Date.now();
      if (body.status !== undefined) {
        const status = statusOf(body.status);
        changes.status = status;
        if (status === 'published' && current.status !== 'published') changes.published_at = now;
      }
      if (Object.keys(changes).length > 0)
        await repo.updateArticle(trx, ctx.accountId, current.id, { ...changes, updated_at: now });
      return { article: await this.find(trx, ctx.accountId, portal, current.id), portal };
    });
  }

  async delete(ctx: AccountContext, portalRef: string, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const portal = await this.portals.find(trx, ctx.accountId, portalRef);
      const article = await this.find(trx, ctx.accountId, portal, id);
      await repo.deleteArticle(trx, ctx.accountId, article.id);
    });
  }

  private async find(q: Q, accountId: number, portal: HelpPortal, id: number): Promise<ArticleRow> {
    const article = await repo.findArticle(q, accountId, portal.id, id);
    if (!article) throw notFound('Article');
    return article;
  }
}
