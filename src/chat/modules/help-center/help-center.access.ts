import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyContextConfig } from 'fastify';
import type { App } from '../../../core/http/app.types.js';
import { unauthorized } from '../../../core/http/errors.js';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import type { PortalsService } from './portals.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The account of the route is the `account_id` query parameter, or the user's only account
     * (the spec's `/api/v1/portals...` paths, which carry no account in the path).
     */
    accountFromQuery?: boolean;
  }
}

/**
 * The help center's management API answers at two path families (docs/spec/decisions.md §10): Chatwoot's
 * `{A}/portals...` under an account, and the spec's `/api/v1/portals...`, where the account is the
 * `account_id` query parameter or the user's only account. Every route is registered once per
 * family, with the same schemas and handler.
 */
export interface PathFamily {
  readonly prefix: string;
  readonly params: TProperties;
  readonly query: TProperties;
  readonly config: FastifyContextConfig;
}

export const PATH_FAMILIES: readonly PathFamily[] = [
  { prefix: '/api/v1/accounts/:accountId', params: { accountId: IdParam }, query: {}, config: {} },
  {
    prefix: '/api/v1',
    params: {},
    query: {
      account_id: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 2147483647,
          description: 'The account; may be left out by a user who is a member of only one account',
        }),
      ),
    },
    config: { auth: 'user', accountFromQuery: true },
  },
];

export const tags = ['help center'];
export const security = [{ userApiKey: [] }];
export const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };

/**
 * Builds the account context of the routes marked `accountFromQuery`, after the auth hook has
 * resolved the user: the same checks as on `{A}` paths (not a member: 404; `adminOnly`: 403).
 */
export function installAccountFromQuery(app: App, portals: PortalsService): void {
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config?.accountFromQuery) return;
    const actor = request.actor;
    if (actor?.type !== 'user') throw unauthorized('A user access token is required');
    const raw = (request.query as Record<string, unknown> | undefined)?.account_id;
    request.ctx = await portals.accountContextFor(actor.user, raw, config.adminOnly === true);
  });
}
