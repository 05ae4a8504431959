import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../routes.js';
import { presentContract } from './contracts.presenter.js';
import {
  ContractCreateBody,
  ContractListQuery,
  ContractListSchema,
  ContractParams,
  ContractSchema,
  ContractUpdateBody,
} from './contracts.schema.js';

const tags = ['contracts'];
const P = '/api/contracts';

/** Contracts of the current account: any member reads, writes and cancels; admins delete. */
export const contractsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.contracts;
  const one = { 200: Envelope(ContractSchema) };

  app.get(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'List contracts (latest start date first); filters: from/to on startDate, status',
        querystring: ContractListQuery,
        response: { 200: Envelope(ContractListSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      return ok({ items: rows.map(presentContract), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.post(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Create an active contract (records contract.created)',
        body: ContractCreateBody,
        response: { 201: Envelope(ContractSchema), ...errorResponses(401, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(ok(presentContract(await svc.create(ctxOf(req), req.body)), 'Contract created')),
  );

  app.get(
    `${P}/:id`,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Show a contract',
        params: ContractParams,
        response: { ...one, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentContract(await svc.get(ctxOf(req), req.params.id))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${P}/:id`,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Change the fields sent (PUT and PATCH alike); the status changes through cancel',
          params: ContractParams,
          body: ContractUpdateBody,
          response: { ...one, ...errorResponses(401, 404, 422) },
        },
      },
      async (req) => ok(presentContract(await svc.update(ctxOf(req), req.params.id, req.body)), 'Contract updated'),
    );
  }

  app.post(
    `${P}/:id/cancel`,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel an active contract (cancelledAt now; records contract.cancelled); 409 when already cancelled',
        params: ContractParams,
        response: { ...one, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (req) => ok(presentContract(await svc.cancel(ctxOf(req), req.params.id)), 'Contract cancelled'),
  );

  app.delete(
    `${P}/:id`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a contract (administrators)',
        params: ContractParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return ok(null, 'Contract deleted');
    },
  );
};
