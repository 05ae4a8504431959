import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../routes.js';
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
import { PortalRef } from './portals.schema.js';

const one = (view: CategoryView) => ({ payload: presentCategory(view) });

/** A portal's categories, at `{A}/portals/{portal}/categories` and `/api/v1/portals/{portal}/categories`. */
export const categoriesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.helpCategories;
  installAccountFromQuery(app, services.helpPortals);

  for (const family of PATH_FAMILIES) {
    const P = `${family.prefix}/portals/:portal_id/categories`;
    const ListParams = Type.Object({ ...family.params, portal_id: PortalRef });
    const OneParams = Type.Object({ ...family.params, portal_id: PortalRef, category_id: IdParam });
    const Query = Type.Object(family.query);
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

    app.get(
      `${P}/:category_id`,
      {
        config,
        schema: {
          tags,
          security,
          summary: 'Show a category',
          params: OneParams,
          querystring: Query,
          response: { 200: CategoryOneSchema, ...errors },
        },
      },
      async (req) => one(await svc.get(ctxOf(req), req.params.portal_id as string, req.params.category_id as number)),
    );

    app.post(
      P,
      {
        config: { ...config, adminOnly: true, bodyKey: 'category' },
        schema: {
          tags,
          security,
          summary: "Create a category (slug from the name unless given; locale: the portal's default)",
          params: ListParams,
          querystring: Query,
          body: CategoryCreateBody,
          response: { 200: CategoryOneSchema, 409: ChatErrorBody, ...errors },
        },
      },
      async (req) => one(await svc.create(ctxOf(req), req.params.portal_id as string, req.body)),
    );

    app.patch(
      `${P}/:category_id`,
      {
        config: { ...config, adminOnly: true, bodyKey: 'category' },
        schema: {
          tags,
          security,
          summary: 'Update a category (a new name keeps the slug)',
          params: OneParams,
          querystring: Query,
          body: CategoryUpdateBody,
          response: { 200: CategoryOneSchema, 409: ChatErrorBody, ...errors },
        },
      },
      async (req) =>
        one(await svc.update(ctxOf(req), req.params.portal_id as string, req.params.category_id as number, req.body)),
    );

    app.delete(
      `${P}/:category_id`,
      {
        config: { ...config, adminOnly: true },
        schema: {
          tags,
          security,
          summary: 'Delete a category; its articles stay, without a category',
          params: OneParams,
          querystring: Query,
          response: { 200: Type.Object({}), ...errors },
        },
      },
      async (req) => {
        await svc.delete(ctxOf(req), req.params.portal_id as string, req.params.category_id as number);
        return {};
      },
    );
  }
};
