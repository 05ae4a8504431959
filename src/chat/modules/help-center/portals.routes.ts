import { Type } from '@sinclair/typebox';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { PATH_FAMILIES, errors, installAccountFromQuery, security, tags } from './help-center.access.js';
import { presentPortal } from './portals.presenter.js';
import { PortalCreateBody, PortalListSchema, PortalRef, PortalSchema, PortalUpdateBody } from './portals.schema.js';
import type { PortalView } from './portals.service.js';

/** Help center portals, at `{A}/portals` and `/api/v1/portals` (help-center.access.ts). */
export const portalsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.helpPortals;
  installAccountFromQuery(app, svc);
  const present = (view: PortalView) => presentPortal(view, services.helpPortals.publicUrl);

  for (const family of PATH_FAMILIES) {
    const P = `${family.prefix}/portals`;
    const ListParams = Type.Object(family.params);
    const OneParams = Type.Object({ ...family.params, portal_id: PortalRef });
    const Query = Type.Object(family.query);
    const config = family.config;

    app.get(
      P,
      {
        config,
        schema: {
          tags,
          security,
          summary: "List the account's portals",
          params: ListParams,
          querystring: Query,
          response: { 200: PortalListSchema, ...errors },
        },
      },
      async (req) => {
        const portals = (await svc.list(ctxOf(req))).map(present);
        return { payload: portals, meta: { portals_count: portals.length, current_page: 1 } };
      },
    );

    app.get(
      `${P}/:portal_id`,
      {
        config,
        schema: {
          tags,
          security,
          summary: 'Show a portal (by id or slug)',
          params: OneParams,
          querystring: Query,
          response: { 200: PortalSchema, ...errors },
        },
      },
      async (req) => present(await svc.get(ctxOf(req), req.params.portal_id as string)),
    );

    app.post(
      P,
      {
        config: { ...config, adminOnly: true, bodyKey: 'portal' },
        schema: {
          tags,
          security,
          summary: 'Create a portal; its slug must be unique in the installation',
          params: ListParams,
          querystring: Query,
          body: PortalCreateBody,
          response: { 200: PortalSchema, 409: ChatErrorBody, ...errors },
        },
      },
      async (req) => present(await svc.create(ctxOf(req), req.body)),
    );

    app.patch(
      `${P}/:portal_id`,
      {
        config: { ...config, adminOnly: true, bodyKey: 'portal' },
        schema: {
          tags,
          security,
          summary: 'Update a portal',
          params: OneParams,
          querystring: Query,
          body: PortalUpdateBody,
          response: { 200: PortalSchema, 409: ChatErrorBody, ...errors },
        },
      },
      async (req) => present(await svc.update(ctxOf(req), req.params.portal_id as string, req.body)),
    );

    app.delete(
      `${P}/:portal_id`,
      {
        config: { ...config, adminOnly: true },
        schema: {
          tags,
          security,
          summary: 'Delete a portal with its categories and articles',
          params: OneParams,
          querystring: Query,
          response: { 200: Type.Object({}), ...errors },
        },
      },
      async (req) => {
        await svc.delete(ctxOf(req), req.params.portal_id as string);
        return {};
      },
    );
  }
};
