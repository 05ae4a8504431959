import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import { createWebhookDeliveriesTable } from '../../../core/webhooks/deliveries.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Outgoing webhooks: registrations, the delivery queue and log, and agent bots' signing secrets. */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('webhooks'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('subscriptions', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account_idx').on('webhooks').columns(['account_id', 'id']).execute();
  await createWebhookDeliveriesTable(db, dialect);
  await db.schema.alterTable('agent_bots').addColumn('secret', 'text').execute();
}

export const migration0003Webhooks: PortableMigration = { up };
