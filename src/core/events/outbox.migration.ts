import type { DialectName } from '../db/database.js';
import { withId } from '../db/schema-helpers.js';
import type { UntypedDb } from '../db/untyped.js';

/** Creates the outbox table; each service's first migration calls it. */
export async function createOutboxTable(db: UntypedDb, dialect: DialectName): Promise<void> {
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

/**
 * The event backbone's additions: `refs` on outbox events (the ids internal listeners read) and
 * `outbox_retries`, where a listener that failed on an event keeps its own outcome and retries
 * (see dispatcher.ts). Each service runs it once, in a migration of its own.
 */
export async function addListenerRetries(db: UntypedDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('outbox_events')
    .addColumn('refs', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await withId(db.schema.createTable('outbox_retries'), dialect)
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('listener', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('outbox_retries_event_uidx')
    .on('outbox_retries')
    .columns(['event_id', 'listener'])
    .unique()
    .execute();
  await db.schema
    .createIndex('outbox_retries_due_idx')
    .on('outbox_retries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('outbox_retries_finished_idx').on('outbox_retries').columns(['finished_at']).execute();
}
