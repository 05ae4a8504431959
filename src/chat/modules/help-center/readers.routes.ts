import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { chatErrorBody, logRefusal, mapError, requestLanguage } from '../../../core/http/error-handler.js';
import { ChatErrorBody, PageQuery } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../module.types.js';
import { Locale } from './portals.schema.js';
import type * as ReaderPages from './readers.html.js';
import type { Page } from './readers.html.js';
import { PublicArticleListSchema, presentPublicArticle } from './readers.presenter.js';
import type { PortalFrame, ReadersService } from './readers.service.js';

// The pages (and the Markdown renderer and sanitiser behind them) are loaded with the first page a
// reader asks for: most starts of the service serve none.
let pagesModule: Promise<typeof ReaderPages> | undefined;
const pages = () => (pagesModule ??= import('./readers.html.js'));

/*
 * The readers' side of the help center, without credentials: the HTML pages under /hc/{slug}
 * and the JSON list of published articles. Pages are cached briefly by browsers and proxies
 * (a minute); article pages are revalidated on every read (ETag), so that each read reaches the
 * server and counts a view.
 */

const config = { auth: 'none' as const };
const security: Record<string, string[]>[] = [];
const HTML = { description: 'An HTML page', content: { 'text/html': { schema: Type.String() } } };
const pageErrors = { 404: ChatErrorBody, 422: ChatErrorBody };
const Slug = Type.String({ minLength: 1, maxLength: 100, description: 'The portal slug' });
const Words = Type.String({ maxLength: 500, description: 'Words searched in the published articles' });

/** The script-free policy of every page: its one inline style (by hash), images, a search form. */
const policy = (page: Page) =>
  `default-src 'none'; style-src 'sha256-${page.styleHash}'; img-src https: http:; form-action 'self'; base-uri 'none'`;

function sendPage(reply: FastifyReply, page: Page, cacheControl: string) {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', cacheControl)
    .header('content-security-policy', policy(page))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .send(page.html);
}

const wantsHtml = (request: FastifyRequest) => /text\/html/i.test(String(request.headers.accept ?? ''));

/** The pages' refusals: an HTML page for browsers, the service's JSON error body for everyone else. */
function installPageErrors(app: Parameters<ChatRoutes>[0], readers: ReadersService) {
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const language = requestLanguage(request);
    const mapped = mapError(err, language);
    logRefusal(request, err, mapped, language);
    if (mapped.headers) reply.headers(mapped.headers);
    reply.header('vary', 'Accept').status(mapped.status);
    if (!wantsHtml(request))
      return reply
        .header('cache-control', 'no-store')
        .send(chatErrorBody(mapped.status, mapped.code, mapped.message, mapped.details));
    let frame: PortalFrame | undefined;
    const slug = (request.params as { slug?: unknown } | undefined)?.slug;
    if (typeof slug === 'string' && slug.length <= 100)
      frame = await readers.frame(slug, undefined, false).catch(() => undefined);
    // In the portal's frame and language; without a portal, in the reader's (Accept-Language).
    return sendPage(reply, (await pages()).errorPage(mapped.status, frame, language), 'no-store');
  });
}

/** The HTML pages of a portal. */
export const readerPagesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.helpReaders;
  installPageErrors(app, svc);
  const tags = ['help center pages'];

  app.get(
    '/hc/:slug',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A portal's home page: its categories with their articles; with `q`, search results",
        params: Type.Object({ slug: Slug }),
        querystring: Type.Object({
          q: Type.Optional(Words),
          page: Type.Optional(PageQuery),
          locale: Type.Optional(Locale),
        }),
        response: { 200: HTML, ...pageErrors },
      },
    },
    async (req, reply) => {
      const { q, page, locale } = req.query;
      if (q !== undefined && q.trim() !== '') {
        const found = await svc.search(req.params.slug, q, page ?? 1, locale);
        return sendPage(reply, (await pages()).searchPage(found, q.trim()), 'public, max-age=60');
      }
      return sendPage(reply, (await pages()).homePage(await svc.home(req.params.slug, locale)), 'public, max-age=60');
    },
  );

  app.get(
    '/hc/:slug/:locale',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A portal's home page in one of its locales",
        params: Type.Object({ slug: Slug, locale: Type.String({ maxLength: 20 }) }),
        response: { 200: HTML, ...pageErrors },
      },
    },
    async (req, reply) =>
      sendPage(
        reply,
        (await pages()).homePage(await svc.home(req.params.slug, req.params.locale)),
        'public, max-age=60',
      ),
  );

  app.get(
    '/hc/:slug/:locale/categories/:category_slug',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A category's page: its published articles",
        params: Type.Object({
          slug: Slug,
          locale: Type.String({ maxLength: 20 }),
          category_slug: Type.String({ maxLength: 200 }),
        }),
        querystring: Type.Object({ page: Type.Optional(PageQuery) }),
        response: { 200: HTML, ...pageErrors },
      },
    },
    async (req, reply) => {
      const { slug, locale, category_slug } = req.params;
      const data = await svc.category(slug, locale, category_slug, req.query.page ?? 1);
      return sendPage(reply, (await pages()).categoryPage(data), 'public, max-age=60');
    },
  );

  app.get(
    '/hc/:slug/articles/:article_slug',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'An article page (published articles only); each read counts a view',
        params: Type.Object({ slug: Slug, article_slug: Type.String({ maxLength: 200 }) }),
        response: { 200: HTML, 304: { description: 'Not modified' }, ...pageErrors },
      },
    },
    async (req, reply) => {
      const data = await svc.article(req.params.slug, req.params.article_slug);
      const page = (await pages()).articlePage(data);
      if (req.method === 'GET') {
        await svc.countView(data.article.id).catch((err) => req.log.warn({ err }, 'article view not counted'));
      }
      const etag = `"${createHash('sha256').update(page.html).digest('base64url').slice(0, 27)}"`;
      reply.header('etag', etag);
      const known = String(req.headers['if-none-match'] ?? '')
        .split(',')
        .map((s) => s.trim().replace(/^W\//, ''));
      if (known.includes(etag)) return reply.status(304).header('cache-control', 'public, no-cache').send();
      return sendPage(reply, page, 'public, no-cache');
    },
  );
};

/** The published articles of a portal as JSON (Chatwoot's public portal API). */
export const publicArticlesRoutes: ChatRoutes = async (app, { services }) => {
  app.get(
    '/public/api/v1/portals/:slug/articles',
    {
      config,
      schema: {
        tags: ['public'],
        security,
        summary: "A portal's published articles (20 a page), by relevance with `query`",
        params: Type.Object({ slug: Slug }),
        querystring: Type.Object({
          page: Type.Optional(PageQuery),
          query: Type.Optional(Words),
          q: Type.Optional(Words),
          category_slug: Type.Optional(Type.String({ maxLength: 200 })),
          locale: Type.Optional(Locale),
        }),
        response: { 200: PublicArticleListSchema, ...pageErrors },
      },
    },
    async (req, reply) => {
      const { page, query, q, category_slug, locale } = req.query;
      const found = await services.helpReaders.publicList(req.params.slug, {
        query: query ?? q,
        category_slug,
        locale,
        page: page ?? 1,
      });
      reply.header('cache-control', 'public, max-age=60');
      return {
        payload: found.articles.map((a) => presentPublicArticle(a, found.portal, services.helpPortals.publicUrl)),
        meta: { current_page: found.page, articles_count: found.count },
      };
    },
  );
};
