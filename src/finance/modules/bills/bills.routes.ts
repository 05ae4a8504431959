import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../routes.js';
import { presentBill } from './bills.presenter.js';
import {
  BillCreateBody,
  BillListQuery,
  BillListSchema,
  BillParams,
  BillSchema,
  BillUpdateBody,
} from './bills.schema.js';

const tags = ['bills'];
const P = '/api/bills';

/** Bills (payables) of the current account: any member reads, writes and pays; admins delete. */
export const billsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.bills;
  const one = { 200: Envelope(BillSchema) };

  app.get(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'List bills (earliest due date first); filters: from/to on dueDate, status',
        querystring: BillListQuery,
        response: { 200: Envelope(BillListSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      return ok({ items: rows.map(presentBill), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.post(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Create an open bill',
        body: BillCreateBody,
        response: { 201: Envelope(BillSchema), ...errorResponses(401, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(ok(presentBill(await svc.create(ctxOf(req), req.body)), 'Bill created')),
  );

  app.get(
    `${P}/:id`,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Show a bill',
        params: BillParams,
        response: { ...one, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentBill(await svc.get(ctxOf(req), req.params.id))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${P}/:id`,
      {
        schema: {
          tags,
          security: bearer,
          summary:
            "Change the fields sent (PUT and PATCH alike); the status changes through pay and cancel; a paid bill's expense follows",
          params: BillParams,
          body: BillUpdateBody,
          response: { ...one, ...errorResponses(401, 404, 422) },
        },
      },
      async (req) => ok(presentBill(await svc.update(ctxOf(req), req.params.id, req.body)), 'Bill updated'),
    );
  }

  app.post(
    `${P}/:id/pay`,
    {
      schema: {
        tags,
        security: bearer,
        summary:
          'Mark an open bill paid (paidAt now) and record its expense transaction (billId, dated today UTC); 409 from any other status',
        params: BillParams,
        response: { ...one, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (req) => ok(presentBill(await svc.pay(ctxOf(req), req.params.id)), 'Bill paid'),
  );

  app.post(
    `${P}/:id/cancel`,
    {
      schema: {
        tags,
        security: bearer,
        summary:
          "Cancel an open bill, or undo a paid bill's payment (paid -> cancelled, its expense transaction removed); 409 from cancelled",
        params: BillParams,
        response: { ...one, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (req) => ok(presentBill(await svc.cancel(ctxOf(req), req.params.id)), 'Bill cancelled'),
  );

  app.delete(
    `${P}/:id`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: "Delete a bill and, if it was paid, its payment's expense transaction (administrators)",
        params: BillParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return ok(null, 'Bill deleted');
    },
  );
};
