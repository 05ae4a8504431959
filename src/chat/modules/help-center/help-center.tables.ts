import type { Generated, Selectable } from 'kysely';

/**
 * Row types of the help center's tables (help-center.migration.ts). Timestamps are epoch
 * milliseconds, booleans 0/1. PostgreSQL also keeps a trigger-maintained `fts_document` column on
 * help_articles (core/db/full-text.ts): repositories name their columns, so it is never read.
 */

export interface HelpPortalsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** Unique in the installation: the readers' address is /hc/{slug}. */
  slug: string;
  color: string | null;
  homepage_link: string | null;
  custom_domain: string | null;
  header_text: string | null;
  page_title: string | null;
  default_locale: string;
  archived: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface HelpCategoriesTable {
  id: Generated<number>;
  account_id: number;
  portal_id: number;
  name: string;
  /** Unique in its portal and locale. */
  slug: string;
  description: string | null;
  locale: string;
  position: number;
  created_at: number;
  updated_at: number;
}

export type ArticleStatus = 'draft' | 'published' | 'archived';

export interface HelpArticlesTable {
  id: Generated<number>;
  account_id: number;
  portal_id: number;
  category_id: number | null;
  author_id: number | null;
  title: string;
  /** Unique in its portal: the readers' address is /hc/{portal}/articles/{slug}. */
  slug: string;
  description: string | null;
  /** Markdown. */
  content: string;
  status: ArticleStatus;
  /** The category's locale, or the portal's default for an article without a category. */
  locale: string;
  position: number;
  views: Generated<number>;
  /** When the article last became published (null while it never was). */
  published_at: number | null;
  created_at: number;
  updated_at: number;
}

export type HelpPortal = Selectable<HelpPortalsTable>;
export type HelpCategory = Selectable<HelpCategoriesTable>;
export type HelpArticle = Selectable<HelpArticlesTable>;

/** The text of articles that readers search (title first: a match there ranks highest). */
export const ARTICLE_TEXT = { table: 'help_articles', columns: ['title', 'description', 'content'] } as const;
