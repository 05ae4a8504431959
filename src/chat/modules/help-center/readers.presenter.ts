import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { articleUrl } from './articles.presenter.js';
import type { HelpPortal } from './help-center.tables.js';
import { seconds } from './portals.presenter.js';
import type { PublishedArticle } from './readers.repository.js';

export const PublicArticleSchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  content: Type.String({ description: 'Markdown' }),
  locale: Type.String(),
  views: Type.Integer(),
  category: Nullable(
    Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String(), locale: Type.String() }),
  ),
  author: Nullable(Type.Object({ name: Type.String(), available_name: Type.String(), thumbnail: Type.String() })),
  url: Type.String({ description: "The article's page" }),
  published_at: Nullable(Type.Integer({ description: 'UNIX seconds' })),
  updated_at: Type.Integer({ description: 'UNIX seconds' }),
});

export const PublicArticleListSchema = Type.Object({
  payload: Type.Array(PublicArticleSchema),
  meta: Type.Object({ current_page: Type.Integer(), articles_count: Type.Integer() }),
});

/** A published article for anyone: no status, account, author e-mail or id. */
export function presentPublicArticle(a: PublishedArticle, portal: Pick<HelpPortal, 'slug'>, publicUrl: string) {
  return {
    id: a.id,
    slug: a.slug,
    title: a.title,
    description: a.description,
    content: a.content,
    locale: a.locale,
    views: Number(a.views),
    category:
      a.category_id === null || a.category_name === null
        ? null
        : { id: a.category_id, name: a.category_name, slug: a.category_slug ?? '', locale: a.category_locale ?? '' },
    author:
      a.author_name === null
        ? null
        : {
            name: a.author_name,
            available_name: a.author_display_name || a.author_name,
            thumbnail: a.author_avatar_url ?? '',
          },
    url: articleUrl(publicUrl, portal, a.slug),
    published_at: a.published_at === null ? null : seconds(a.published_at),
    updated_at: seconds(a.updated_at),
  };
}
