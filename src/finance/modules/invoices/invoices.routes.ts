import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../routes.js';
import { presentInvoice } from './invoices.presenter.js';
import {
  InvoiceCreateBody,
  InvoiceListQuery,
  InvoiceListSchema,
  InvoiceParams,
  InvoiceSchema,
  InvoiceUpdateBody,
} from './invoices.schema.js';

const tags = ['invoices'];
const P = '/api/invoices';

/** Invoices (receivables) of the current account: any member reads, writes, issues and pays; admins delete. */
export const invoicesRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.invoices;
  const one = { 200: Envelope(InvoiceSchema) };

  app.get(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'List invoices (earliest due date first); filters: from/to on dueDate, status',
        querystring: InvoiceListQuery,
        response: { 200: Envelope(InvoiceListSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      return ok({ items: rows.map(presentInvoice), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.post(
    P,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Create an invoice, draft unless status is issued (records invoice.created)',
        body: InvoiceCreateBody,
        response: { 201: Envelope(InvoiceSchema), ...errorResponses(401, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(ok(presentInvoice(await svc.create(ctxOf(req), req.body)), 'Invoice created')),
  );

  app.get(
    `${P}/:id`,
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Show an invoice',
        params: InvoiceParams,
        response: { ...one, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentInvoice(await svc.get(ctxOf(req), req.params.id))),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      `${P}/:id`,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Change the fields sent (PUT and PATCH alike); the status changes through issue, pay and cancel',
          params: InvoiceParams,
          body: InvoiceUpdateBody,
          response: { ...one, ...errorResponses(401, 404, 422) },
        },
      },
      async (req) => ok(presentInvoice(await svc.update(ctxOf(req), req.params.id, req.body)), 'Invoice updated'),
    );
  }

  const action = (path: string, summary: string, message: string, run: typeof svc.issue) =>
    app.post(
      `${P}/:id/${path}`,
      {
        schema: {
          tags,
          security: bearer,
          summary,
          params: InvoiceParams,
          response: { ...one, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (req) => ok(presentInvoice(await run.call(svc, ctxOf(req), req.params.id)), message),
    );

  action('issue', 'Issue a draft invoice (issuedAt now); 409 from any other status', 'Invoice issued', svc.issue);
  action(
    'pay',
    'Mark an issued or overdue invoice paid (paidAt now; records invoice.paid); 409 otherwise',
    'Invoice paid',
    svc.pay,
  );
  action('cancel', 'Cancel a draft, issued or overdue invoice; 409 otherwise', 'Invoice cancelled', svc.cancel);

  app.delete(
    `${P}/:id`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Delete an invoice (administrators)',
        params: InvoiceParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return ok(null, 'Invoice deleted');
    },
  );
};
