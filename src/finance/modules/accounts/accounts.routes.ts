import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentAccount } from './accounts.presenter.js';
import { AccountParams, AccountSchema, UpdateAccountBody } from './accounts.schema.js';

const tags = ['accounts'];

/**
 * The caller's current account (the account of the access token): every member reads it, its
 * administrators change its settings. Any other id is 404, as if it did not exist.
 */
export const accountsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.accounts;

  app.get(
    '/api/accounts/:accountId',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'The current account and its settings',
        params: AccountParams,
        response: { 200: Envelope(AccountSchema), ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentAccount(await svc.show(ctxOf(req), req.params.accountId))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/api/accounts/:accountId',
      {
        config: { access: 'admin' as const },
        schema: {
          tags,
          security: bearer,
          summary: "Change the current account's settings (locale: en or pt-BR); PUT and PATCH alike",
          params: AccountParams,
          body: UpdateAccountBody,
          response: { 200: Envelope(AccountSchema), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (req) => ok(presentAccount(await svc.update(ctxOf(req), req.params.accountId, req.body))),
    );
  }
};
