import type { DialectName } from '../db/database.js';
import type { UntypedDb } from '../db/untyped.js';

/** Creates the webhook delivery queue and log; each service's migrations call it. */
export async function createWebhookDeliveriesTable(db: UntypedDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint')
    .addColumn('subscriber_type', 'text', (c) => c.notNull())
    .addColumn('subscriber_id', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The worker's claim: due pending deliveries, and expired leases of crashed workers.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_lease_idx')
    .on('webhook_deliveries')
    .columns(['status', 'locked_until'])
    .execute();
  // The delivery log of one subscriber, newest first.
  await db.schema
    .createIndex('webhook_deliveries_subscriber_idx')
    .on('webhook_deliveries')
    .columns(['account_id', 'subscriber_type', 'subscriber_id', 'created_at'])
    .execute();
}
