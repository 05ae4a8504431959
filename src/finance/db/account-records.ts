import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Q } from '../context.js';
import type { FinanceDatabase } from './schema.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/** The finance data tables: account-owned rows with an integer id and a status. */
export type RecordTable = 'transactions' | 'bills' | 'invoices' | 'contracts';

export interface RecordQuery {
  /** Equality filters on columns of the table; undefined values are left out. */
  equal: Record<string, string | undefined>;
  /** The period filter (inclusive 'YYYY-MM-DD' bounds) on the list's date column, which also orders it. */
  period: { column: string; from?: string; to?: string };
  direction: 'asc' | 'desc';
}

/**
 * The statements the four finance data modules share, on one table: a filtered page with its
 * total, find, insert, update, a conditional status transition and delete, each scoped to the
 * account. The modules keep their own filters and meaning (which statuses, which date column).
 * Kysely cannot type a query over a table chosen at run time, so the builder is untyped inside
 * and the rows are typed at the edge by the table's row type.
 */
export function accountRecords<T extends RecordTable>(tableName: T) {
  type Row = Selectable<FinanceDatabase[T]>;
  const table: string = tableName;
  const on = (q: Q) => q as unknown as UntypedDb;

  const filtered = (q: Q, accountId: number, query: RecordQuery) => {
    let select = on(q).selectFrom(table).where('account_id', '=', accountId);
    for (const [column, value] of Object.entries(query.equal))
      if (value !== undefined) select = select.where(column, '=', value);
    if (query.period.from) select = select.where(query.period.column, '>=', query.period.from);
    if (query.period.to) select = select.where(query.period.column, '<=', query.period.to);
    return select;
  };

  return {
    /** One page, ordered by the period column then id, and the total matching the filter. */
    async page(
      q: Q,
      accountId: number,
      query: RecordQuery,
      page: { limit: number; offset: number },
    ): Promise<{ rows: Row[]; total: number }> {
      const rows = await filtered(q, accountId, query)
        .selectAll()
        .orderBy(query.period.column, query.direction)
        .orderBy('id', query.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const count = await filtered(q, accountId, query)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows: rows as Row[], total: Number(count.n) };
    },

    /** `lock`: hold the row until the transaction ends (PostgreSQL; SQLite serialises writers). */
    async find(q: Q, accountId: number, id: number, lock = false): Promise<Row | undefined> {
      let select = on(q).selectFrom(table).selectAll().where('account_id', '=', accountId).where('id', '=', id);
      if (lock) select = select.forUpdate();
      return (await select.executeTakeFirst()) as Row | undefined;
    },

    async insert(q: Q, values: Insertable<FinanceDatabase[T]>): Promise<Row> {
      return (await on(q).insertInto(table).values(values).returningAll().executeTakeFirstOrThrow()) as Row;
    },

    /** Changes the row; undefined when it is not the account's. */
    async update(
      q: Q,
      accountId: number,
      id: number,
      values: Updateable<FinanceDatabase[T]>,
    ): Promise<Row | undefined> {
      return (await on(q)
        .updateTable(table)
        .set(values as Record<string, unknown>)
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()) as Row | undefined;
    },

    /**
     * Changes the row only while its status is one of `from`: one conditional statement, so two
     * concurrent payments (or two runs of the daily job) cannot both succeed. Undefined otherwise.
     */
    async transition(
      q: Q,
      accountId: number,
      id: number,
      from: readonly string[],
      values: Updateable<FinanceDatabase[T]>,
    ): Promise<Row | undefined> {
      return (await on(q)
        .updateTable(table)
        .set(values as Record<string, unknown>)
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', 'in', from)
        .returningAll()
        .executeTakeFirst()) as Row | undefined;
    },

    async delete(q: Q, accountId: number, id: number): Promise<boolean> {
      const result = await on(q)
        .deleteFrom(table)
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
