import type { ArticleRow } from './articles.repository.js';
import type { ArticleView } from './articles.service.js';
import type { HelpPortal } from './help-center.tables.js';
import { portalUrl, seconds } from './portals.presenter.js';

/** The readers' page of an article. */
export const articleUrl = (publicUrl: string, portal: Pick<HelpPortal, 'slug'>, slug: string) =>
  `${portalUrl(publicUrl, portal)}/articles/${encodeURIComponent(slug)}`;

export const categoryOf = (a: ArticleRow) =>
  a.category_id === null || a.category_name === null
    ? null
    : { id: a.category_id, name: a.category_name, slug: a.category_slug ?? '', locale: a.category_locale ?? '' };

/** Chatwoot's article: `status` by name, `updated_at` in UNIX seconds, its category and author. */
export function presentArticle({ article: a, portal }: ArticleView, publicUrl: string) {
  return {
    id: a.id,
    slug: a.slug,
    title: a.title,
    content: a.content,
    description: a.description,
    status: a.status,
    position: a.position,
    locale: a.locale,
    views: Number(a.views),
    account_id: a.account_id,
    portal_id: a.portal_id,
    category_id: a.category_id,
    category: categoryOf(a),
    author_id: a.author_id,
    author:
      a.author_id === null || a.author_name === null
        ? null
        : {
            id: a.author_id,
            name: a.author_name,
            available_name: a.author_display_name || a.author_name,
            email: a.author_email ?? '',
            thumbnail: a.author_avatar_url ?? '',
          },
    meta: {},
    associated_articles: [],
    url: articleUrl(publicUrl, portal, a.slug),
    published_at: a.published_at === null ? null : seconds(a.published_at),
    created_at: seconds(a.created_at),
    updated_at: seconds(a.updated_at),
  };
}
