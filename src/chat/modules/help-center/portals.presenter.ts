import type { HelpPortal } from './help-center.tables.js';
import type { PortalView } from './portals.service.js';

export const seconds = (ms: number) => Math.floor(ms / 1000);

/** The readers' home page of a portal. */
export const portalUrl = (publicUrl: string, portal: Pick<HelpPortal, 'slug'>) =>
  `${publicUrl}/hc/${encodeURIComponent(portal.slug)}`;

/** Chatwoot's portal, with the spec's `articles_count` and `categories_count` at the top level. */
export function presentPortal({ portal, counts }: PortalView, publicUrl: string) {
  const all = counts.byStatus.draft + counts.byStatus.published + counts.byStatus.archived;
  const locales = [...counts.locales.entries()].sort(([a], [b]) =>
    a === portal.default_locale ? -1 : b === portal.default_locale ? 1 : a.localeCompare(b),
  );
  return {
    id: portal.id,
    name: portal.name,
    slug: portal.slug,
    color: portal.color,
    custom_domain: portal.custom_domain,
    homepage_link: portal.homepage_link,
    header_text: portal.header_text,
    page_title: portal.page_title,
    archived: portal.archived === 1,
    account_id: portal.account_id,
    articles_count: all,
    categories_count: counts.categories,
    config: {
      allowed_locales: locales.map(([code, n]) => ({
        code,
        articles_count: n.articles,
        categories_count: n.categories,
      })),
      default_locale: portal.default_locale,
    },
    meta: {
      all_articles_count: all,
      archived_articles_count: counts.byStatus.archived,
      published_count: counts.byStatus.published,
      draft_articles_count: counts.byStatus.draft,
      categories_count: counts.categories,
      default_locale: portal.default_locale,
    },
    url: portalUrl(publicUrl, portal),
    created_at: seconds(portal.created_at),
    updated_at: seconds(portal.updated_at),
  };
}
