import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { App } from '../../../core/http/app.types.js';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { AccountContext } from '../../context.js';
import { errors, security, tags, type PathFamily } from './help-center.access.js';
import { PortalRef } from './portals.schema.js';

/** What a portal's item service (articles, categories) offers the show, create, update and delete routes. */
export interface PortalItemService<View, Create, Update> {
  get(ctx: AccountContext, portalRef: string, id: number): Promise<View>;
  create(ctx: AccountContext, portalRef: string, body: Create): Promise<View>;
  update(ctx: AccountContext, portalRef: string, id: number, body: Update): Promise<View>;
  delete(ctx: AccountContext, portalRef: string, id: number): Promise<void>;
}

export interface PortalItemRoutes<View, C extends TSchema, U extends TSchema> {
  family: PathFamily;
  /** `{prefix}/portals/:portal_id/{collection}`. */
  collection: string;
  /** The item's id parameter in the path, e.g. `article_id`. */
  idParam: string;
  /** The key Rails-style clients wrap the body in (`{"article": {...}}`). */
  bodyKey: string;
  schemas: { one: TSchema; create: C; update: U };
  summaries: { show: string; create: string; update: string; delete: string };
  service: PortalItemService<View, Static<C>, Static<U>>;
  /** `{payload: item}`, the body of show, create and update. */
  one(view: View): unknown;
}

/**
 * Show, create, update and delete of a portal's items in one path family (the list differs between
 * articles and categories, so each module registers its own). Writes are for administrators; a
 * duplicate slug answers 409.
 */
export function registerPortalItemRoutes<View, C extends TSchema, U extends TSchema>(
  app: App,
  options: PortalItemRoutes<View, C, U>,
): void {
  const { family, idParam, schemas, summaries, service: svc, one } = options;
  const P = `${family.prefix}/portals/:portal_id/${options.collection}`;
  const item = `${P}/:${idParam}`;
  const ListParams = Type.Object({ ...family.params, portal_id: PortalRef });
  const OneParams = Type.Object({ ...family.params, portal_id: PortalRef, [idParam]: IdParam });
  const Query = Type.Object(family.query);
  const config = family.config;
  const write = { ...config, adminOnly: true };
  const ref = (params: unknown) => {
    const p = params as Record<string, unknown>;
    return { portal: p.portal_id as string, id: p[idParam] as number };
  };

  app.get(
    item,
    {
      config,
      schema: {
        tags,
        security,
        summary: summaries.show,
        params: OneParams,
        querystring: Query,
        response: { 200: schemas.one, ...errors },
      },
    },
    async (req) => {
      const { portal, id } = ref(req.params);
      return one(await svc.get(ctxOf(req), portal, id));
    },
  );

  app.post(
    P,
    {
      config: { ...write, bodyKey: options.bodyKey },
      schema: {
        tags,
        security,
        summary: summaries.create,
        params: ListParams,
        querystring: Query,
        body: schemas.create,
        response: { 200: schemas.one, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => one(await svc.create(ctxOf(req), ref(req.params).portal, req.body)),
  );

  app.patch(
    item,
    {
      config: { ...write, bodyKey: options.bodyKey },
      schema: {
        tags,
        security,
        summary: summaries.update,
        params: OneParams,
        querystring: Query,
        body: schemas.update,
        response: { 200: schemas.one, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const { portal, id } = ref(req.params);
      return one(await svc.update(ctxOf(req), portal, id, req.body));
    },
  );

  app.delete(
    item,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: summaries.delete,
        params: OneParams,
        querystring: Query,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      const { portal, id } = ref(req.params);
      await svc.delete(ctxOf(req), portal, id);
      return {};
    },
  );
}
