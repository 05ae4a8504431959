import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Transaction, TransactionKind, TransactionStatus, TransactionsTable } from '../../db/schema.js';

export interface TransactionFilter {
  from?: string;
  to?: string;
  status?: TransactionStatus;
  kind?: TransactionKind;
  category?: string;
}

function filtered(q: Q, accountId: number, f: TransactionFilter) {
  let query = q.selectFrom('transactions').where('account_id', '=', accountId);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.kind) query = query.where('kind', '=', f.kind);
  if (f.category) query = query.where('category', '=', f.category);
  if (f.from) query = query.where('date', '>=', f.from);
  if (f.to) query = query.where('date', '<=', f.to);
  return query;
}

/** One page of the account's transactions, newest date first, and the total matching the filter. */
export async function listTransactions(
  q: Q,
  accountId: number,
  filter: TransactionFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: Transaction[]; total: number }> {
  const rows = await filtered(q, accountId, filter)
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await filtered(q, accountId, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** `lock`: hold the row until the transaction ends (PostgreSQL; SQLite serialises writers). */
export async function findTransaction(q: Q, accountId: number, id: number, lock = false) {
  let query = q.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertTransaction(q: Q, values: Insertable<TransactionsTable>) {
  return q.insertInto('transactions').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateTransaction(q: Q, accountId: number, id: number, values: Updateable<TransactionsTable>) {
  return q
    .updateTable('transactions')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteTransaction(q: Q, accountId: number, id: number): Promise<boolean> {
  const result = await q.deleteFrom('transactions').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
