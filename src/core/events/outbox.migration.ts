import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { withId } from '../db/schema-helpers.js';

/** Creates the outbox table; each service's first migration calls it. */
export async function createOutboxTable(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('outbox_events'), dialect)
    .addColumn('account_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('dispatched_at', 'bigint')
    .addColumn('dispatch_error', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_events_pending_idx')
    .on('outbox_events')
    .columns(['dispatched_at', 'id'])
    .execute();
}
