import { registerRecordRoutes } from '../../http/record-routes.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentTransaction } from './transactions.presenter.js';
import {
  TransactionCreateBody,
  TransactionListQuery,
  TransactionListSchema,
  TransactionParams,
  TransactionSchema,
  TransactionUpdateBody,
} from './transactions.schema.js';

/** Income and expense transactions of the current account: any member reads and writes; admins delete. */
export const transactionsRoutes: FinanceRoutes = async (app, { services }) => {
  registerRecordRoutes(app, {
    path: '/api/transactions',
    tag: 'transactions',
    noun: 'Transaction',
    schemas: {
      record: TransactionSchema,
      list: TransactionListSchema,
      query: TransactionListQuery,
      params: TransactionParams,
      create: TransactionCreateBody,
      update: TransactionUpdateBody,
    },
    present: presentTransaction,
    service: services.transactions,
    summaries: {
      list: 'List transactions (newest date first); filters: from/to on date, status, kind, category',
      create: 'Record a transaction (records transaction.created)',
      show: 'Show a transaction',
      update: 'Change the fields sent (PUT and PATCH alike); a change records transaction.updated',
      delete: 'Delete a transaction (administrators)',
    },
  });
};
