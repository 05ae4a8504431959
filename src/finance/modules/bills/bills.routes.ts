import { registerRecordRoutes } from '../../http/record-routes.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentBill } from './bills.presenter.js';
import {
  BillCreateBody,
  BillListQuery,
  BillListSchema,
  BillParams,
  BillSchema,
  BillUpdateBody,
} from './bills.schema.js';

/** Bills (payables) of the current account: any member reads, writes and pays; admins delete. */
export const billsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.bills;
  registerRecordRoutes(app, {
    path: '/api/bills',
    tag: 'bills',
    noun: 'Bill',
    schemas: {
      record: BillSchema,
      list: BillListSchema,
      query: BillListQuery,
      params: BillParams,
      create: BillCreateBody,
      update: BillUpdateBody,
    },
    present: presentBill,
    service: svc,
    summaries: {
      list: 'List bills (earliest due date first); filters: from/to on dueDate, status',
      create: 'Create an open bill',
      show: 'Show a bill',
      update:
        "Change the fields sent (PUT and PATCH alike); the status changes through pay and cancel; a paid bill's expense follows",
      delete: "Delete a bill and, if it was paid, its payment's expense transaction (administrators)",
    },
    actions: [
      {
        name: 'pay',
        summary:
          'Mark an open bill paid (paidAt now) and record its expense transaction (billId, dated today UTC); 409 from any other status',
        message: 'Bill paid',
        run: (ctx, id) => svc.pay(ctx, id),
      },
      {
        name: 'cancel',
        summary:
          "Cancel an open bill, or undo a paid bill's payment (paid -> cancelled, its expense transaction removed); 409 from cancelled",
        message: 'Bill cancelled',
        run: (ctx, id) => svc.cancel(ctx, id),
      },
    ],
  });
};
