import { Type } from '@sinclair/typebox';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCategory } from './categories.presenter.js';
import {
  CategoryCreateBody,
  CategoryListQuery,
  CategoryListSchema,
  CategoryOneSchema,
  CategoryUpdateBody,
} from './categories.schema.js';
import type { CategoryView } from './categories.service.js';
import { PATH_FAMILIES, errors, installAccountFromQuery, security, tags } from './help-center.access.js';
import { registerPortalItemRoutes } from './portal-item.routes.js';
import { PortalRef } from './portals.schema.js';

const one = (view: CategoryView) => ({ payload: presentCategory(view) });

/** A portal's categories, at `{A}/portals/{portal}/categories` and `/api/v1/portals/{portal}/categories`. */
export const categoriesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.helpCategories;
  installAccountFromQuery(app, services.helpPortals);

  for (const family of PATH_FAMILIES) {
    const P = `${family.prefix}/portals/:portal_id/categories`;
    const ListParams = Type.Object({ ...family.params, portal_id: PortalRef });
    const config = family.config;

    app.get(
      P,
      {
        config,
        schema: {
          tags,
          security,
          summary: "List a portal's categories, in their order",
          params: ListParams,
          querystring: Type.Object({ ...family.query, ...CategoryListQuery }),
          response: { 200: CategoryListSchema, ...errors },
        },
      },
      async (req) => {
        const query = req.query as { locale?: string };
        const list = await svc.list(ctxOf(req), req.params.portal_id as string, { locale: query.locale });
        return { payload: list.map(presentCategory), meta: { categories_count: list.length } };
      },
    );

    registerPortalItemRoutes(app, {
      family,
      collection: 'categories',
      idParam: 'category_id',
      bodyKey: 'category',
      schemas: { one: CategoryOneSchema, create: CategoryCreateBody, update: CategoryUpdateBody },
      summaries: {
        show: 'Show a category',
        create: "Create a category (slug from the name unless given; locale: the portal's default)",
        update: 'Update a category (a new name keeps the slug)',
        delete: 'Delete a category; its articles stay, without a category',
      },
      service: svc,
      one,
    });
  }
};
