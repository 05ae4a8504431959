import type { FastifySchema, RouteOptions } from 'fastify';
import type { App } from './app.types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the PUT route registered as an alias of this PATCH route (put-aliases.ts). */
    putAliasOf?: 'PATCH';
  }
}

/**
 * PUT as an alias of PATCH on every route that has PATCH, as Rails `resources` routes answer both
 * (NooviChat's n8n node updates inboxes and webhooks with PUT; Chatwoot documents PUT for contacts).
 * One mechanism for every route: when a PATCH route is added, the same route (handler, schemas,
 * hooks, config) is added for PUT in the same plugin scope, so it runs behind the same
 * authentication. The alias is hidden from the OpenAPI document (decisions/0028): the document
 * shows each operation once, and its introduction says that PUT is accepted wherever PATCH is.
 */
export function addPutAliases(app: App): void {
  app.addHook('onRoute', function (this: App, route: RouteOptions) {
    if (route.method !== 'PATCH' || route.config?.putAliasOf) return;
    // Fastify adds the path without the scope's prefix (routePath), which `route()` prefixes again.
    type Added = RouteOptions & { path?: string; routePath?: string; prefix?: string };
    const { url: _url, path: _path, routePath, prefix: _prefix, method: _method, ...rest } = route as Added;
    this.route({
      ...rest,
      method: 'PUT',
      url: routePath ?? route.url,
      schema: { ...(route.schema ?? {}), hide: true } as FastifySchema,
      config: { ...route.config, putAliasOf: 'PATCH' },
    });
  });
}
