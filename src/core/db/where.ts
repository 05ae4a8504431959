import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * `+column = value`: the same condition as `column = value`, but the unary plus keeps SQLite's
 * planner from choosing an index on that column. Use it for the account check of lookups by a
 * list of primary keys (`account_id = ? and id in (...)`): without statistics SQLite otherwise
 * walks the account's whole index instead of fetching the listed rows. PostgreSQL reads it as
 * the plain comparison.
 */
export function sameValueNoIndex(column: string, value: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`+${sql.ref(column)} = ${value}`;
}
