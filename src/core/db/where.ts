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

/**
 * The rows of one account with the listed primary keys: `+account_id = ? and id in (...)`
 * (duplicates dropped; an empty list matches nothing). The account check is `sameValueNoIndex`'s,
 * so SQLite fetches the listed rows instead of walking the account's index. For the lookups that
 * present a page (its contacts, teams, inboxes, cards...) in one query per table.
 */
export function idsInAccount(accountId: number, ids: readonly number[]): RawBuilder<SqlBool> {
  if (ids.length === 0) return sql<SqlBool>`1 = 0`;
  const unique = [...new Set(ids)];
  return sql<SqlBool>`(${sameValueNoIndex('account_id', accountId)} and ${sql.ref('id')} in (${sql.join(unique)}))`;
}
