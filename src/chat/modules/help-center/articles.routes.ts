import { Type } from '@sinclair/typebox';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentArticle } from './articles.presenter.js';
import {
  ArticleCreateBody,
  ArticleListQuery,
  ArticleListSchema,
  ArticleOneSchema,
  ArticleUpdateBody,
} from './articles.schema.js';
import type { ArticleListQuery as ListQuery, ArticleView } from './articles.service.js';
import { PATH_FAMILIES, errors, installAccountFromQuery, security, tags } from './help-center.access.js';
import { registerPortalItemRoutes } from './portal-item.routes.js';
import { PortalRef } from './portals.schema.js';

/** A portal's articles, at `{A}/portals/{portal}/articles` and `/api/v1/portals/{portal}/articles`. */
export const articlesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.helpArticles;
  installAccountFromQuery(app, services.helpPortals);
  const present = (view: ArticleView) => presentArticle(view, services.helpPortals.publicUrl);
  const one = (view: ArticleView) => ({ payload: present(view) });

  for (const family of PATH_FAMILIES) {
    const P = `${family.prefix}/portals/:portal_id/articles`;
    const ListParams = Type.Object({ ...family.params, portal_id: PortalRef });
    const config = family.config;

    app.get(
      P,
      {
        config,
        schema: {
          tags,
          security,
          summary: "List a portal's articles (25 a page), filtered by category, status, locale or words",
          params: ListParams,
          querystring: Type.Object({ ...family.query, ...ArticleListQuery }),
          response: { 200: ArticleListSchema, ...errors },
        },
      },
      async (req) => {
        const list = await svc.list(ctxOf(req), req.params.portal_id as string, req.query as ListQuery);
        return {
          payload: list.articles.map(present),
          meta: {
            current_page: list.page,
            articles_count: list.count,
            all_articles_count: list.byStatus.draft + list.byStatus.published + list.byStatus.archived,
            published_count: list.byStatus.published,
            draft_articles_count: list.byStatus.draft,
            archived_articles_count: list.byStatus.archived,
          },
        };
      },
    );

    registerPortalItemRoutes(app, {
      family,
      collection: 'articles',
      idParam: 'article_id',
      bodyKey: 'article',
      schemas: { one: ArticleOneSchema, create: ArticleCreateBody, update: ArticleUpdateBody },
      summaries: {
        show: 'Show an article',
        create: 'Create an article (a draft unless status is published); the author is the caller unless given',
        update: 'Update an article; status moves between draft, published and archived',
        delete: 'Delete an article',
      },
      service: svc,
      one,
    });
  }
};
