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

/** The expense that records the payment of a bill (at most one: unique index on bill_id). */
export async function findBillExpense(q: Q, accountId: number, billId: number, lock = false) {
  let query = q
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('bill_id', '=', billId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Removes the expense of a bill's payment; false when the bill had none. */
export async function deleteBillExpense(q: Q, accountId: number, billId: number): Promise<boolean> {
  const result = await q
    .deleteFrom('transactions')
    .where('account_id', '=', accountId)
    .where('bill_id', '=', billId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
