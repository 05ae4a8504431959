import type { CategoryView } from './categories.service.js';
import { seconds } from './portals.presenter.js';

/** Chatwoot's category, with the spec's `articles_count`. */
export function presentCategory({ category, articlesCount }: CategoryView) {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    locale: category.locale,
    description: category.description,
    position: category.position,
    account_id: category.account_id,
    portal_id: category.portal_id,
    articles_count: articlesCount,
    meta: { articles_count: articlesCount },
    created_at: seconds(category.created_at),
    updated_at: seconds(category.updated_at),
  };
}
