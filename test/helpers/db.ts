import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../../src/chat/db/schema.js';

/** Read-only looks at the database that tests assert on (writes go through the API). */

/** Events recorded in the outbox for an account, oldest first, with parsed payloads. */
export async function outboxEvents(db: Kysely<ChatDatabase>, accountId: number, name?: string) {
  let query = db.selectFrom('outbox_events').select(['id', 'name', 'payload']).where('account_id', '=', accountId);
  if (name) query = query.where('name', '=', name);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, payload: JSON.parse(r.payload) as Record<string, any> }));
}

/** Number of rows in a table (all accounts). */
export async function countRows(db: Kysely<ChatDatabase>, table: keyof ChatDatabase): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A conversation's row, by the id the API shows (its display id within the account). */
export function conversationRow(db: Kysely<ChatDatabase>, accountId: number, displayId: number) {
  return db
    .selectFrom('conversations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('display_id', '=', displayId)
    .executeTakeFirstOrThrow();
}
