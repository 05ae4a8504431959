import { sql } from 'kysely';
import type { Q } from '../../context.js';
import type { TransactionKind } from '../../db/schema.js';

/**
 * The accountant report's read-only queries over the finance data of one account and one month
 * (`first` <= date < `next`, 'YYYY-MM-DD' text). Cancelled rows are left out. Served by the
 * data tables' (account_id, date) and (account_id, due_date) indexes.
 */

/** Sum of amount_cents per currency and kind (exact integers on both dialects), by currency. */
export async function monthTotals(q: Q, accountId: number, first: string, next: string) {
  return q
    .selectFrom('transactions')
    .select(['currency', 'kind', sql<number | string>`cast(sum(amount_cents) as bigint)`.as('total_cents')])
    .where('account_id', '=', accountId)
    .where('date', '>=', first)
    .where('date', '<', next)
    .where('status', '<>', 'cancelled')
    .groupBy(['currency', 'kind'])
    .orderBy('currency')
    .execute();
}

/**
 * The month's transactions (of one kind, when given), oldest first. An expense that pays a bill
 * carries the bill's id and its supplier as the counterparty.
 */
export async function monthTransactions(
  q: Q,
  accountId: number,
  first: string,
  next: string,
  limit: number,
  kind?: TransactionKind,
) {
  let query = q
    .selectFrom('transactions as t')
    .leftJoin('bills as b', (join) => join.onRef('b.id', '=', 't.bill_id').onRef('b.account_id', '=', 't.account_id'))
    .select([
      't.id',
      't.kind',
      't.amount_cents',
      't.currency',
      't.date',
      't.category',
      't.description',
      't.status',
      't.bill_id',
      'b.supplier as counterparty',
    ])
    .where('t.account_id', '=', accountId)
    .where('t.date', '>=', first)
    .where('t.date', '<', next)
    .where('t.status', '<>', 'cancelled');
  if (kind) query = query.where('t.kind', '=', kind);
  return query.orderBy('t.date').orderBy('t.id').limit(limit).execute();
}

export async function monthBills(q: Q, accountId: number, first: string, next: string, limit: number) {
  return q
    .selectFrom('bills')
    .select(['id', 'supplier', 'description', 'category', 'amount_cents', 'currency', 'due_date', 'status'])
    .where('account_id', '=', accountId)
    .where('due_date', '>=', first)
    .where('due_date', '<', next)
    .where('status', '<>', 'cancelled')
    .orderBy('due_date')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export type ReportTransaction = Awaited<ReturnType<typeof monthTransactions>>[number];
export type ReportBill = Awaited<ReturnType<typeof monthBills>>[number];
