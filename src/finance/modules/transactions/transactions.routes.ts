import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../routes.js';
import { presentTransaction } from './transactions.presenter.js';
import {
  TransactionCreateBody,
  TransactionListQuery,
  TransactionListSchema,
  TransactionParams,
  TransactionSchema,
  TransactionUpdateBody,
} from './transactions.schema.js';

const tags = ['transactions'];
const P = '/api/transactions';

/** Income and expense transactions of the current account: any member reads and writes; admins delete. */
export const transactionsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.transactions;

  app.get(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'List transactions (newest date first); filters: from/to on date, status, kind, category',
        querystring: TransactionListQuery,
        response: { 200: Envelope(TransactionListSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      return ok({ items: rows.map(presentTransaction), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.post(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Record a transaction (records transaction.created)',
        body: TransactionCreateBody,
        response: { 201: Envelope(TransactionSchema), ...errorResponses(401, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(ok(presentTransaction(await svc.create(ctxOf(req), req.body)), 'Transaction created')),
  );

  app.get(
    `${P}/:id`,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Show a transaction',
        params: TransactionParams,
        response: { 200: Envelope(TransactionSchema), ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentTransaction(await svc.get(ctxOf(req), req.params.id))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${P}/:id`,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Change the fields sent (PUT and PATCH alike); a change records transaction.updated',
          params: TransactionParams,
          body: TransactionUpdateBody,
          response: { 200: Envelope(TransactionSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (req) =>
        ok(presentTransaction(await svc.update(ctxOf(req), req.params.id, req.body)), 'Transaction updated'),
    );
  }

  app.delete(
    `${P}/:id`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a transaction (administrators)',
        params: TransactionParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return ok(null, 'Transaction deleted');
    },
  );
};
