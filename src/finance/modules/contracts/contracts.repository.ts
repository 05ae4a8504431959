import type { Q } from '../../context.js';
import { accountRecords } from '../../db/account-records.js';
import type { ContractStatus } from '../../db/schema.js';

export interface ContractFilter {
  from?: string;
  to?: string;
  status?: ContractStatus;
}

const records = accountRecords('contracts');

/** One page of the account's contracts, latest start date first, and the total matching the filter. */
export const listContracts = (q: Q, accountId: number, f: ContractFilter, page: { limit: number; offset: number }) =>
  records.page(
    q,
    accountId,
    { equal: { status: f.status }, period: { column: 'start_date', from: f.from, to: f.to }, direction: 'desc' },
    page,
  );

export const findContract = records.find;
export const insertContract = records.insert;
export const updateContract = records.update;

/** active -> cancelled in one conditional statement; undefined when the contract is not active (or not the account's). */
export const cancelContract = (q: Q, accountId: number, id: number, now: number) =>
  records.transition(q, accountId, id, ['active'], { status: 'cancelled', cancelled_at: now, updated_at: now });

export const deleteContract = records.delete;
