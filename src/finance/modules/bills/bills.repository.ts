import type { Q } from '../../context.js';
import { accountRecords } from '../../db/account-records.js';
import type { BillStatus } from '../../db/schema.js';

export interface BillFilter {
  from?: string;
  to?: string;
  status?: BillStatus;
}

const records = accountRecords('bills');

/** One page of the account's bills, earliest due date first, and the total matching the filter. */
export const listBills = (q: Q, accountId: number, f: BillFilter, page: { limit: number; offset: number }) =>
  records.page(
    q,
    accountId,
    { equal: { status: f.status }, period: { column: 'due_date', from: f.from, to: f.to }, direction: 'asc' },
    page,
  );

export const findBill = records.find;
export const insertBill = records.insert;
export const updateBill = records.update;
/** Moves the bill to another status only while it is in one of `from`; undefined when it is not. */
export const transitionBill = (
  q: Q,
  accountId: number,
  id: number,
  from: readonly BillStatus[],
  values: Parameters<typeof records.transition>[4],
) => records.transition(q, accountId, id, from, values);
export const deleteBill = records.delete;
