import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCustomFilter } from './custom-filters.presenter.js';
import {
  CustomFilterBody,
  CustomFilterListQuery,
  CustomFilterPatch,
  CustomFilterSchema,
} from './custom-filters.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['custom filters'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const FilterParams = Type.Object({ accountId: IdParam, id: IdParam });
/** Any member, for their own filters (decisions §10). */
const config = { bodyKey: 'custom_filter' };

export const customFiltersRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.customFilters;

  app.get(
    `${A}/custom_filters`,
    {
      schema: {
        tags,
        security,
        summary: "List the calling user's saved filters of one filter_type (conversation when not given)",
        params: AccountParams,
        querystring: CustomFilterListQuery,
        response: { 200: Type.Array(CustomFilterSchema), ...errors },
      },
    },
    async (req) => (await svc.list(ctxOf(req), req.query)).map(presentCustomFilter),
  );

  app.post(
    `${A}/custom_filters`,
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "Save a filter for the calling user (query checked against the filter_type's filter; the type from filter_type, type, ?filter_type=, else conversation)",
        params: AccountParams,
        querystring: CustomFilterListQuery,
        body: CustomFilterBody,
        response: { 200: CustomFilterSchema, ...errors },
      },
    },
    async (req) => presentCustomFilter(await svc.create(ctxOf(req), req.body, req.query.filter_type)),
  );

  app.get(
    `${A}/custom_filters/:id`,
    {
      schema: {
        tags,
        security,
        summary: "Show one of the calling user's saved filters",
        params: FilterParams,
        response: { 200: CustomFilterSchema, ...errors },
      },
    },
    async (req) => presentCustomFilter(await svc.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    `${A}/custom_filters/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Update one of the calling user's saved filters",
        params: FilterParams,
        querystring: CustomFilterListQuery,
        body: CustomFilterPatch,
        response: { 200: CustomFilterSchema, ...errors },
      },
    },
    async (req) => presentCustomFilter(await svc.update(ctxOf(req), req.params.id, req.body, req.query.filter_type)),
  );

  app.delete(
    `${A}/custom_filters/:id`,
    {
      schema: {
        tags,
        security,
        summary: "Delete one of the calling user's saved filters",
        params: FilterParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
