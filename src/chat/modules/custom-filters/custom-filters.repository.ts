import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { CustomFiltersTable, FilterType } from './custom-filters.migration.js';

/** A user's filters in an account (of one type when given), in creation order (custom_filters_account_user_type_idx). */
export async function listFilters(q: Q, accountId: number, userId: number, filterType?: FilterType) {
  let query = q
    .selectFrom('custom_filters')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId);
  if (filterType) query = query.where('filter_type', '=', filterType);
  return query.orderBy('id').execute();
}

/** One of the user's filters in the account; another user's (or account's) id is not found. */
export async function findFilter(q: Q, accountId: number, userId: number, id: number) {
  return q
    .selectFrom('custom_filters')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countFilters(q: Q, accountId: number, userId: number): Promise<number> {
  const row = await q
    .selectFrom('custom_filters')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertFilter(q: Q, values: Insertable<CustomFiltersTable>) {
  return q.insertInto('custom_filters').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateFilter(
  q: Q,
  accountId: number,
  userId: number,
  id: number,
  values: Updateable<CustomFiltersTable>,
) {
  return q
    .updateTable('custom_filters')
    .set(values)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteFilter(q: Q, accountId: number, userId: number, id: number) {
  await q
    .deleteFrom('custom_filters')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}
