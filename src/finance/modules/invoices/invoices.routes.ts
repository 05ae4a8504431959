import { registerRecordRoutes } from '../../http/record-routes.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentInvoice } from './invoices.presenter.js';
import {
  InvoiceCreateBody,
  InvoiceListQuery,
  InvoiceListSchema,
  InvoiceParams,
  InvoiceSchema,
  InvoiceUpdateBody,
} from './invoices.schema.js';

/** Invoices (receivables) of the current account: any member reads, writes, issues and pays; admins delete. */
export const invoicesRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.invoices;
  registerRecordRoutes(app, {
    path: '/api/invoices',
    tag: 'invoices',
    noun: 'Invoice',
    schemas: {
      record: InvoiceSchema,
      list: InvoiceListSchema,
      query: InvoiceListQuery,
      params: InvoiceParams,
      create: InvoiceCreateBody,
      update: InvoiceUpdateBody,
    },
    present: presentInvoice,
    service: svc,
    summaries: {
      list: 'List invoices (earliest due date first); filters: from/to on dueDate, status',
      create: 'Create an invoice, draft unless status is issued (records invoice.created)',
      show: 'Show an invoice',
      update: 'Change the fields sent (PUT and PATCH alike); the status changes through issue, pay and cancel',
      delete: 'Delete an invoice (administrators)',
    },
    actions: [
      {
        name: 'issue',
        summary: 'Issue a draft invoice (issuedAt now); 409 from any other status',
        message: 'Invoice issued',
        run: (ctx, id) => svc.issue(ctx, id),
      },
      {
        name: 'pay',
        summary: 'Mark an issued or overdue invoice paid (paidAt now; records invoice.paid); 409 otherwise',
        message: 'Invoice paid',
        run: (ctx, id) => svc.pay(ctx, id),
      },
      {
        name: 'cancel',
        summary: 'Cancel a draft, issued or overdue invoice; 409 otherwise',
        message: 'Invoice cancelled',
        run: (ctx, id) => svc.cancel(ctx, id),
      },
    ],
  });
};
