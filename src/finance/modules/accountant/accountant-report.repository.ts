import { sql } from 'kysely';
import type { Q } from '../../context.js';
import type { TransactionKind } from '../../db/schema.js';

/**
 * The accountant report's read-only queries over the finance data of one account and one month
 * (`first` <= date < `next`, 'YYYY-MM-DD' text). Cancelled rows are left out. Served by the
 * data tables' (account_id, date) and (account_id, due_date) indexes.
 */

/** Sum of amount_cents per kind (exact integers on both dialects). */
export async function monthTotals(q: Q, accountId: number, first: string, next: string) {
  return q
    .selectFrom('transactions')
    .select(['kind', sql<number>`cast(sum(amount_cents) as bigint)`.as('total_cents')])
    .where('account_id', '=', accountId)
    .where('date', '>=', first)
    .where('date', '<', next)
    .where('status', '<>', 'cancelled')
    .groupBy('kind')
    .execute();
}

export async function monthTransactions(
  q: Q,
  accountId: number,
  first: string,
  next: string,
  limit: number,
  kind?: TransactionKind,
) {
  let query = q
    .selectFrom('transactions')
    .select(['id', 'kind', 'amount_cents', 'currency', 'date', 'category', 'description', 'status'])
    .where('account_id', '=', accountId)
    .where('date', '>=', first)
    .where('date', '<', next)
    .where('status', '<>', 'cancelled');
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('date').orderBy('id').limit(limit).execute();
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
