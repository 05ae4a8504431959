import type { Q } from '../../context.js';
import { accountRecords } from '../../db/account-records.js';
import type { TransactionKind, TransactionStatus } from '../../db/schema.js';

export interface TransactionFilter {
  from?: string;
  to?: string;
  status?: TransactionStatus;
  kind?: TransactionKind;
  category?: string;
}

const records = accountRecords('transactions');

/** One page of the account's transactions, newest date first, and the total matching the filter. */
export const listTransactions = (
  q: Q,
  accountId: number,
  f: TransactionFilter,
  page: { limit: number; offset: number },
) =>
  records.page(
    q,
    accountId,
    {
      equal: { status: f.status, kind: f.kind, category: f.category },
      period: { column: 'date', from: f.from, to: f.to },
      direction: 'desc',
    },
    page,
  );

export const findTransaction = records.find;
export const insertTransaction = records.insert;
export const updateTransaction = records.update;
export const deleteTransaction = records.delete;
