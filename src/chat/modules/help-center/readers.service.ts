import { fullTextSearch } from '../../../core/db/full-text.js';
import { notFound } from '../../../core/http/errors.js';
import type { ChatDeps } from '../../context.js';
import type { HelpCategory, HelpPortal } from './help-center.tables.js';
import { ARTICLE_TEXT } from './help-center.tables.js';
import { normalizeLocale } from './portals.service.js';
import * as repo from './readers.repository.js';
import type { PublishedArticle } from './readers.repository.js';

/** Articles a list page shows at once (category pages, search results, the public JSON). */
export const READER_PAGE_SIZE = 20;
/** Articles a category shows on the portal's home page. */
const HOME_ARTICLES = 5;

export interface PortalFrame {
  portal: HelpPortal;
  /** The locale the page is in. */
  locale: string;
  /** Every locale the portal has something in, its default first. */
  locales: string[];
}

export interface HomeData extends PortalFrame {
  categories: { category: HelpCategory; count: number; articles: PublishedArticle[] }[];
  /** Published articles of the locale without a category. */
  uncategorised: PublishedArticle[];
}

export interface ListData extends PortalFrame {
  articles: PublishedArticle[];
  count: number;
  page: number;
}

export interface ArticleData extends PortalFrame {
  article: PublishedArticle;
  /** Other published articles of the same category. */
  related: PublishedArticle[];
}

const pageOf = (page: number) => ({ limit: READER_PAGE_SIZE, offset: (Math.max(1, page) - 1) * READER_PAGE_SIZE });

/**
 * The readers' side of the help center: a portal that is not archived, addressed by its slug,
 * and its published articles. Nothing else (drafts, archived articles, e-mails) is ever read here.
 */
export class ReadersService {
  constructor(private readonly deps: ChatDeps) {}

  /** The portal and its locales; `locale` must be one of them (404 otherwise), default: the portal's. */
  async frame(slug: string, locale?: string, strict = true): Promise<PortalFrame> {
    const portal = await repo.findOpenPortal(this.deps.db, slug.toLowerCase());
    if (!portal) throw notFound('Portal');
    const inUse = await repo.localesInUse(this.deps.db, portal.id);
    const locales = [portal.default_locale, ...inUse.filter((l) => l !== portal.default_locale).sort()];
    const wanted = locale === undefined ? portal.default_locale : normalizeLocale(locale);
    if (!locales.includes(wanted)) {
      if (strict) throw notFound('Page');
      return { portal, locale: portal.default_locale, locales };
    }
    return { portal, locale: wanted, locales };
  }

  async home(slug: string, locale?: string): Promise<HomeData> {
    const frame = await this.frame(slug, locale);
    const db = this.deps.db;
    const portalId = frame.portal.id;
    const [categories, counts, uncategorised] = await Promise.all([
      repo.categoriesOf(db, portalId, frame.locale),
      repo.countPublishedByCategory(db, portalId),
      repo.publishedArticles(db, portalId, { categoryId: null, locale: frame.locale }, { limit: 10, offset: 0 }),
    ]);
    const withArticles = await Promise.all(
      categories.map(async (category) => ({
        category,
        count: counts.get(category.id) ?? 0,
        articles: await repo.publishedArticles(
          db,
          portalId,
          { categoryId: category.id },
          { limit: HOME_ARTICLES, offset: 0 },
        ),
      })),
    );
    return { ...frame, categories: withArticles.filter((c) => c.count > 0), uncategorised };
  }

  async category(
    slug: string,
    locale: string,
    categorySlug: string,
    page: number,
  ): Promise<ListData & { category: HelpCategory }> {
    const frame = await this.frame(slug, locale);
    const category = await repo.findCategoryBySlug(
      this.deps.db,
      frame.portal.id,
      frame.locale,
      categorySlug.toLowerCase(),
    );
    if (!category) throw notFound('Category');
    const filter = { categoryId: category.id };
    const [articles, count] = await Promise.all([
      repo.publishedArticles(this.deps.db, frame.portal.id, filter, pageOf(page)),
      repo.countPublished(this.deps.db, frame.portal.id, filter),
    ]);
    return { ...frame, category, articles, count, page };
  }

  async article(slug: string, articleSlug: string): Promise<ArticleData> {
    const frame = await this.frame(slug);
    const article = await repo.findPublishedBySlug(
      this.deps.db,
      frame.portal.id,
      articleSlug.normalize('NFC').toLowerCase(),
    );
    if (!article) throw notFound('Article');
    const related =
      article.category_id === null
        ? []
        : (
            await repo.publishedArticles(
              this.deps.db,
              frame.portal.id,
              { categoryId: article.category_id },
              { limit: 6, offset: 0 },
            )
          ).filter((a) => a.id !== article.id);
    const locale = frame.locales.includes(article.locale) ? article.locale : frame.locale;
    return { ...frame, locale, article, related: related.slice(0, 5) };
  }

  /** Published articles matching the words of `query` (full-text index), best first. */
  async search(slug: string, query: string, page: number, locale?: string): Promise<ListData> {
    const frame = await this.frame(slug, locale, false);
    return { ...frame, ...(await this.matching(frame.portal, { query }, page)) };
  }

  /** The public JSON list: published articles, optionally of a category (by slug), a locale, or words. */
  async publicList(slug: string, options: { query?: string; category_slug?: string; locale?: string; page: number }) {
    const frame = await this.frame(slug, undefined, false);
    const locale = options.locale === undefined ? undefined : normalizeLocale(options.locale);
    let categoryId: number | undefined;
    if (options.category_slug !== undefined) {
      const category = await repo.findCategoryBySlug(
        this.deps.db,
        frame.portal.id,
        locale ?? frame.portal.default_locale,
        options.category_slug.toLowerCase(),
      );
      if (!category) return { portal: frame.portal, articles: [], count: 0, page: options.page };
      categoryId = category.id;
    }
    const found = await this.matching(frame.portal, { query: options.query, locale, categoryId }, options.page);
    return { portal: frame.portal, ...found };
  }

  /** One more reader of a published article. */
  countView(articleId: number): Promise<void> {
    return repo.countView(this.deps.db, articleId);
  }

  private async matching(
    portal: HelpPortal,
    criteria: { query?: string; locale?: string; categoryId?: number },
    page: number,
  ): Promise<{ articles: PublishedArticle[]; count: number; page: number }> {
    const words = criteria.query?.trim() ?? '';
    const search = words === '' ? null : fullTextSearch(this.deps.dialect, ARTICLE_TEXT, words);
    // Words with nothing searchable in them (punctuation only) find nothing.
    if (words !== '' && !search) return { articles: [], count: 0, page };
    const filter: repo.PublishedFilter = {
      locale: criteria.locale,
      categoryId: criteria.categoryId,
      ...(search ? { search } : {}),
    };
    const [articles, count] = await Promise.all([
      repo.publishedArticles(this.deps.db, portal.id, filter, pageOf(page)),
      repo.countPublished(this.deps.db, portal.id, filter),
    ]);
    return { articles, count, page };
  }
}
