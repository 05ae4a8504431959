import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Invoice, InvoiceStatus, InvoicesTable } from '../../db/schema.js';

export interface InvoiceFilter {
  from?: string;
  to?: string;
  status?: InvoiceStatus;
}

function filtered(q: Q, accountId: number, f: InvoiceFilter) {
  let query = q.selectFrom('invoices').where('account_id', '=', accountId);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.from) query = query.where('due_date', '>=', f.from);
  if (f.to) query = query.where('due_date', '<=', f.to);
  return query;
}

/** One page of the account's invoices, earliest due date first, and the total matching the filter. */
export async function listInvoices(
  q: Q,
  accountId: number,
  filter: InvoiceFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: Invoice[]; total: number }> {
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

export async function findInvoice(q: Q, accountId: number, id: number) {
  return q.selectFrom('invoices').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertInvoice(q: Q, values: Insertable<InvoicesTable>) {
  return q.insertInto('invoices').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes the invoice; undefined when it is not the account's. */
export async function updateInvoice(q: Q, accountId: number, id: number, values: Updateable<InvoicesTable>) {
  return q.updateTable('invoices').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Moves the invoice to another status only while it is in one of `from` (one conditional
 * statement: two concurrent payments, or two runs of the daily job, cannot both succeed).
 */
export async function transitionInvoice(
  q: Q,
  accountId: number,
  id: number,
  from: readonly InvoiceStatus[],
  values: Updateable<InvoicesTable>,
) {
  return q
    .updateTable('invoices')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteInvoice(q: Q, accountId: number, id: number): Promise<boolean> {
  const result = await q.deleteFrom('invoices').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
