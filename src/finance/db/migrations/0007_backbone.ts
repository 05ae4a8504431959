import { upgradeToBackbone } from '../../../core/background/backbone.migration.js';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The event backbone (per-listener retries, the job queue that replaces job_runs, e-mail
 * attachments), and webhooks in core's shared shape: `events` becomes `subscriptions`, with a `name`.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await upgradeToBackbone(db, dialect);
  await db.schema.alterTable('webhooks').renameColumn('events', 'subscriptions').execute();
  await db.schema.alterTable('webhooks').addColumn('name', 'text').execute();
  await db.schema.dropTable('job_runs').execute();
}

export const migration0007Backbone: PortableMigration = { up };
