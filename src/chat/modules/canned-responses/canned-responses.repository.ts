import { sql, type Insertable, type Updateable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { Q } from '../../context.js';
import type { CannedResponsesTable } from './canned-responses.migration.js';

/** `%` and `_` in a search term match themselves. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The account's canned responses, alphabetical by short code; with `search`, those whose short
 * code or content contains it (case-insensitive: `ilike` on PostgreSQL, `like` on SQLite), ranked
 * exact short code, then short codes starting with it, then short codes containing it, then
 * content-only matches. Served by canned_responses_account_short_code_uidx (account scope, order).
 */
export async function listCannedResponses(q: Q, dialect: DialectName, accountId: number, search?: string) {
  const byCode = sql`lower(short_code)`;
  let query = q.selectFrom('canned_responses').selectAll().where('account_id', '=', accountId);
  if (search) {
    const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
    const term = escapeLike(search);
    const codeMatches = (pattern: string) => sql<boolean>`short_code ${like} ${pattern} escape '\\'`;
    query = query
      .where(({ or }) => or([codeMatches(`%${term}%`), sql<boolean>`content ${like} ${`%${term}%`} escape '\\'`]))
      .orderBy(
        sql`case when ${codeMatches(term)} then 0 when ${codeMatches(`${term}%`)} then 1 when ${codeMatches(`%${term}%`)} then 2 else 3 end`,
      );
  }
  return query.orderBy(byCode).orderBy('id').execute();
}

export async function findCannedResponse(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('canned_responses')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The account's canned response with this short code, compared case-insensitively (the unique index). */
export async function findByShortCode(q: Q, accountId: number, shortCode: string) {
  return q
    .selectFrom('canned_responses')
    .selectAll()
    .where('account_id', '=', accountId)
    .where(sql`lower(short_code)`, '=', sql`lower(${shortCode})`)
    .executeTakeFirst();
}

export async function insertCannedResponse(q: Q, values: Insertable<CannedResponsesTable>) {
  return q.insertInto('canned_responses').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateCannedResponse(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<CannedResponsesTable>,
) {
  return q
    .updateTable('canned_responses')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCannedResponse(q: Q, accountId: number, id: number) {
  await q.deleteFrom('canned_responses').where('account_id', '=', accountId).where('id', '=', id).execute();
}
