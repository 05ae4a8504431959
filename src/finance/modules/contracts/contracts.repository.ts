import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Contract, ContractStatus, ContractsTable } from '../../db/schema.js';

export interface ContractFilter {
  from?: string;
  to?: string;
  status?: ContractStatus;
}

function filtered(q: Q, accountId: number, f: ContractFilter) {
  let query = q.selectFrom('contracts').where('account_id', '=', accountId);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.from) query = query.where('start_date', '>=', f.from);
  if (f.to) query = query.where('start_date', '<=', f.to);
  return query;
}

/** One page of the account's contracts, latest start date first, and the total matching the filter. */
export async function listContracts(
  q: Q,
  accountId: number,
  filter: ContractFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: Contract[]; total: number }> {
  const rows = await filtered(q, accountId, filter)
    .selectAll()
    .orderBy('start_date', 'desc')
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
export async function findContract(q: Q, accountId: number, id: number, lock = false) {
  let query = q.selectFrom('contracts').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertContract(q: Q, values: Insertable<ContractsTable>) {
  return q.insertInto('contracts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateContract(q: Q, accountId: number, id: number, values: Updateable<ContractsTable>) {
  return q
    .updateTable('contracts')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** active -> cancelled in one conditional statement; undefined when the contract is not active (or not the account's). */
export async function cancelContract(q: Q, accountId: number, id: number, now: number) {
  return q
    .updateTable('contracts')
    .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

export async function deleteContract(q: Q, accountId: number, id: number): Promise<boolean> {
  const result = await q.deleteFrom('contracts').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
