import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Bill, BillStatus, BillsTable } from '../../db/schema.js';

export interface BillFilter {
  from?: string;
  to?: string;
  status?: BillStatus;
}

function filtered(q: Q, accountId: number, f: BillFilter) {
  let query = q.selectFrom('bills').where('account_id', '=', accountId);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.from) query = query.where('due_date', '>=', f.from);
  if (f.to) query = query.where('due_date', '<=', f.to);
  return query;
}

/** One page of the account's bills, earliest due date first, and the total matching the filter. */
export async function listBills(q: Q, accountId: number, filter: BillFilter, page: { limit: number; offset: number }): Promise<{ rows: Bill[]; total: number }> {
  const rows = await filtered(q, accountId, filter)
    .selectAll()
    .orderBy('due_date', 'asc')
    .orderBy('id', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await filtered(q, accountId, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export async function findBill(q: Q, accountId: number, id: number) {
  return q.selectFrom('bills').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertBill(q: Q, values: Insertable<BillsTable>) {
  return q.insertInto('bills').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes the bill; undefined when it is not the account's. */
export async function updateBill(q: Q, accountId: number, id: number, values: Updateable<BillsTable>) {
  return q.updateTable('bills').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Moves the bill to another status only while it is in one of `from` (one conditional statement,
 * so two concurrent payments cannot both succeed); undefined when it is not.
 */
export async function transitionBill(q: Q, accountId: number, id: number, from: readonly BillStatus[], values: Updateable<BillsTable>) {
  return q
    .updateTable('bills')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteBill(q: Q, accountId: number, id: number): Promise<boolean> {
  const result = await q.deleteFrom('bills').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
