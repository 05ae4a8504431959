import type { Q } from '../../context.js';
import { accountRecords } from '../../db/account-records.js';
import type { InvoiceStatus } from '../../db/schema.js';

export interface InvoiceFilter {
  from?: string;
  to?: string;
  status?: InvoiceStatus;
}

const records = accountRecords('invoices');

/** One page of the account's invoices, earliest due date first, and the total matching the filter. */
export const listInvoices = (q: Q, accountId: number, f: InvoiceFilter, page: { limit: number; offset: number }) =>
  records.page(
    q,
    accountId,
    { equal: { status: f.status }, period: { column: 'due_date', from: f.from, to: f.to }, direction: 'asc' },
    page,
  );

export const findInvoice = records.find;
export const insertInvoice = records.insert;
export const updateInvoice = records.update;
/** Moves the invoice to another status only while it is in one of `from`; undefined when it is not. */
export const transitionInvoice = (
  q: Q,
  accountId: number,
  id: number,
  from: readonly InvoiceStatus[],
  values: Parameters<typeof records.transition>[4],
) => records.transition(q, accountId, id, from, values);
export const deleteInvoice = records.delete;
