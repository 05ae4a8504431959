import { createHash } from 'node:crypto';
import type { Language } from '../../../core/i18n/language.js';
import type { HelpCategory, HelpPortal } from './help-center.tables.js';
import { formatDate, htmlLang, languageName, wordsFor, type PageWords } from './readers.i18n.js';
import { plainText, renderArticle } from './readers.markdown.js';
import type { PublishedArticle } from './readers.repository.js';
import type { ArticleData, HomeData, ListData, PortalFrame } from './readers.service.js';
import { READER_PAGE_SIZE } from './readers.service.js';
import { paletteOf, stylesheet } from './readers.style.js';

/**
 * The readers' pages as HTML. Everything that comes from data is escaped here, except the article
 * body, which is Markdown rendered and sanitised (readers.markdown.ts). Links are relative to the
 * host, so the pages work behind any address.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface Page {
  html: string;
  /** The CSP hash of the page's one inline style. */
  styleHash: string;
}

/** Addresses of a portal's pages. */
export const links = (portal: Pick<HelpPortal, 'slug' | 'default_locale'>) => {
  const base = `/hc/${encodeURIComponent(portal.slug)}`;
  return {
    home: (locale: string) => (locale === portal.default_locale ? base : `${base}/${encodeURIComponent(locale)}`),
    category: (c: Pick<HelpCategory, 'locale' | 'slug'>) =>
      `${base}/${encodeURIComponent(c.locale)}/categories/${encodeURIComponent(c.slug)}`,
    article: (slug: string) => `${base}/articles/${encodeURIComponent(slug)}`,
    search: base,
  };
};

interface Frame extends PortalFrame {
  title: string;
  description?: string;
  /** The home page's big header with the search box; other pages get a compact one. */
  hero?: boolean;
  query?: string;
  crumbs?: { label: string; href?: string }[];
  main: string;
}

function layout(f: Frame, w: PageWords): Page {
  const portal = f.portal;
  const to = links(portal);
  const siteName = portal.page_title || portal.name;
  const css = stylesheet(paletteOf(portal.color));
  const search = `<form class="search" role="search" action="${esc(to.search)}" method="get">
<label class="visually-hidden" for="q">${esc(w.searchLabel)}</label>
<input id="q" type="search" name="q" value="${esc(f.query ?? '')}" placeholder="${esc(w.searchPlaceholder)}" autocomplete="off" maxlength="200">
${f.locale === portal.default_locale ? '' : `<input type="hidden" name="locale" value="${esc(f.locale)}">`}
<button type="submit">${esc(w.searchButton)}</button>
</form>`;
  const languages =
    f.locales.length > 1
      ? `<nav aria-label="${esc(w.languages)}" class="langs">${f.locales
          .map((l) =>
            l === f.locale
              ? `<span aria-current="true" lang="${esc(htmlLang(l))}"><strong>${esc(languageName(l))}</strong></span>`
              : `<a href="${esc(to.home(l))}" lang="${esc(htmlLang(l))}" hreflang="${esc(htmlLang(l))}">${esc(languageName(l))}</a>`,
          )
          .join('')}</nav>`
      : '';
  const homepage = portal.homepage_link
    ? `<a href="${esc(portal.homepage_link)}" rel="noopener">${esc(hostOf(portal.homepage_link))} ↗</a>`
    : '';
  const crumbs = f.crumbs?.length
    ? `<nav class="crumbs" aria-label="${esc(w.breadcrumb)}"><ol>${f.crumbs
        .map((c) =>
          c.href
            ? `<li><a href="${esc(c.href)}">${esc(c.label)}</a></li>`
            : `<li aria-current="page">${esc(c.label)}</li>`,
        )
        .join('')}</ol></nav>`
    : '';
  const html = `<!doctype html>
<html lang="${esc(htmlLang(f.locale))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(f.title === siteName ? siteName : `${f.title} · ${siteName}`)}</title>
${f.description ? `<meta name="description" content="${esc(f.description)}">` : ''}
<meta name="color-scheme" content="light">
<style>${css}</style>
</head>
<body>
<a class="skip" href="#main">${esc(w.skipToContent)}</a>
<header class="site-header">
<div class="wrap">
<div class="topbar"><a class="brand" href="${esc(to.home(f.locale))}">${esc(portal.name)}</a><div class="toplinks">${languages}${homepage}</div></div>
${f.hero ? `<div class="hero"><h1>${esc(portal.header_text || w.defaultHeader)}</h1>${search}</div>` : `<div class="subbar">${search}</div>`}
</div>
</header>
<main id="main" class="wrap">
${crumbs}
${f.main}
</main>
<footer class="site-footer"><div class="wrap"><span>© ${esc(portal.name)}</span><span>${esc(w.poweredBy)}</span></div></footer>
</body>
</html>
`;
  return { html, styleHash: createHash('sha256').update(css).digest('base64') };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const summaryOf = (a: PublishedArticle) => a.description || plainText(a.content, 160);

function articleList(frame: PortalFrame, articles: PublishedArticle[], showCategory: boolean): string {
  const to = links(frame.portal);
  return `<ul class="list">${articles
    .map(
      (a) =>
        `<li><a href="${esc(to.article(a.slug))}"><span class="title">${esc(a.title)}</span>${
          summaryOf(a) ? `<span class="snippet">${esc(summaryOf(a))}</span>` : ''
        }${showCategory && a.category_name ? `<span class="tag">${esc(a.category_name)}</span>` : ''}</a></li>`,
    )
    .join('')}</ul>`;
}

function pager(page: number, count: number, href: (page: number) => string, w: PageWords): string {
  const last = Math.max(1, Math.ceil(count / READER_PAGE_SIZE));
  if (last === 1) return '';
  const prev = page > 1 ? `<a href="${esc(href(page - 1))}" rel="prev">← ${esc(w.previousPage)}</a>` : '<span></span>';
  const next = page < last ? `<a href="${esc(href(page + 1))}" rel="next">${esc(w.nextPage)} →</a>` : '<span></span>';
  return `<nav class="pager" aria-label="${esc(`${page} / ${last}`)}">${prev}${next}</nav>`;
}

export function homePage(d: HomeData): Page {
  const w = wordsFor(d.locale);
  const to = links(d.portal);
  const cards = d.categories.map(
    ({ category: c, count, articles }) => `<section class="card" aria-labelledby="c${c.id}">
<h2 id="c${c.id}"><a href="${esc(to.category(c))}">${esc(c.name)}</a></h2>
${c.description ? `<p class="desc">${esc(c.description)}</p>` : ''}<span class="count">${esc(w.articleCount(count))}</span>
<ul>${articles.map((a) => `<li><a href="${esc(to.article(a.slug))}">${esc(a.title)}</a></li>`).join('')}</ul>
${count > articles.length ? `<a class="more" href="${esc(to.category(c))}">${esc(w.viewAll(count))} →</a>` : ''}
</section>`,
  );
  const others = d.uncategorised.length
    ? `${d.categories.length ? `<h2 class="section-title">${esc(w.otherArticles)}</h2>` : ''}${articleList(d, d.uncategorised, false)}`
    : '';
  const main =
    cards.length || others
      ? `${cards.length ? `<div class="grid">${cards.join('')}</div>` : ''}${others}`
      : `<div class="empty">${esc(w.noArticles)}</div>`;
  return layout({ ...d, title: d.portal.page_title || d.portal.name, hero: true, main }, w);
}

export function categoryPage(d: ListData & { category: HelpCategory }): Page {
  const w = wordsFor(d.locale);
  const to = links(d.portal);
  const main = `<div class="page-head"><h1>${esc(d.category.name)}</h1><p>${esc(
    d.category.description || w.articleCount(d.count),
  )}</p></div>${d.articles.length ? articleList(d, d.articles, false) : `<div class="empty">${esc(w.noArticles)}</div>`}${pager(
    d.page,
    d.count,
    (p) => `${to.category(d.category)}?page=${p}`,
    w,
  )}`;
  return layout(
    {
      ...d,
      title: d.category.name,
      description: d.category.description ?? undefined,
      crumbs: [{ label: w.home, href: to.home(d.locale) }, { label: d.category.name }],
      main,
    },
    w,
  );
}

export function articlePage(d: ArticleData): Page {
  const w = wordsFor(d.locale);
  const to = links(d.portal);
  const a = d.article;
  const category =
    a.category_id !== null && a.category_name
      ? { locale: a.category_locale ?? d.locale, slug: a.category_slug ?? '', name: a.category_name }
      : null;
  const author = a.author_display_name || a.author_name;
  const meta = [w.updatedOn(formatDate(a.updated_at, d.locale)), author ? w.writtenBy(author) : null]
    .filter(Boolean)
    .join(' · ');
  const related = d.related.length
    ? `<aside class="aside" aria-labelledby="related"><h2 id="related">${esc(category?.name ?? w.otherArticles)}</h2><ul>${d.related
        .map((r) => `<li><a href="${esc(to.article(r.slug))}">${esc(r.title)}</a></li>`)
        .join('')}</ul></aside>`
    : '';
  const back = category
    ? `<a class="back" href="${esc(to.category(category))}">← ${esc(w.backTo(category.name))}</a>`
    : `<a class="back" href="${esc(to.home(d.locale))}">← ${esc(w.backTo(w.home))}</a>`;
  const main = `<div class="layout"><article class="doc">
<h1>${esc(a.title)}</h1>
${a.description ? `<p class="lead">${esc(a.description)}</p>` : ''}
<p class="meta">${esc(meta)}</p>
<div class="body">${renderArticle(a.content)}</div>
${back}
</article>${related}</div>`;
  const crumbs = [{ label: w.home, href: to.home(d.locale) }];
  if (category) crumbs.push({ label: category.name, href: to.category(category) });
  return layout(
    { ...d, title: a.title, description: summaryOf(a) || undefined, crumbs: [...crumbs, { label: a.title }], main },
    w,
  );
}

export function searchPage(d: ListData, query: string): Page {
  const w = wordsFor(d.locale);
  const to = links(d.portal);
  const results = d.articles.length
    ? articleList(d, d.articles, true)
    : `<div class="empty"><strong>${esc(w.noResults)}</strong>${esc(w.noResultsHint)}</div>`;
  const locale = d.locale === d.portal.default_locale ? '' : `&locale=${encodeURIComponent(d.locale)}`;
  const main = `<div class="page-head"><h1>${esc(w.resultsFor(query))}</h1><p>${esc(w.resultCount(d.count))}</p></div>${results}${pager(
    d.page,
    d.count,
    (p) => `${to.search}?q=${encodeURIComponent(query)}${locale}&page=${p}`,
    w,
  )}`;
  return layout(
    {
      ...d,
      title: w.resultsFor(query),
      query,
      crumbs: [{ label: w.home, href: to.home(d.locale) }, { label: w.searchButton }],
      main,
    },
    w,
  );
}

/** A page for a refusal (404, 422...) in a portal's frame and locale when there is one, else bare in `language`. */
export function errorPage(status: number, frame: PortalFrame | undefined, language: Language = 'en'): Page {
  const locale = frame?.locale ?? language;
  const w = wordsFor(locale);
  const title = status === 404 ? w.notFoundTitle : w.errorTitle;
  const body = `<div class="empty"><strong>${esc(title)}</strong>${esc(status === 404 ? w.notFoundText : '')}</div>`;
  if (frame) {
    const main = `${body}<p><a class="back" href="${esc(links(frame.portal).home(frame.locale))}">← ${esc(w.goToHomepage)}</a></p>`;
    return layout({ ...frame, title, main }, w);
  }
  const css = stylesheet(paletteOf(null));
  const html = `<!doctype html>
<html lang="${esc(htmlLang(locale))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${css}</style></head>
<body><main id="main" class="wrap">${body}</main></body>
</html>
`;
  return { html, styleHash: createHash('sha256').update(css).digest('base64') };
}
