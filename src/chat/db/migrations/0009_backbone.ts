import { upgradeToBackbone } from '../../../core/background/backbone.migration.js';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** The event backbone: per-listener retries, the job queue, e-mail attachments. */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await upgradeToBackbone(db, dialect);
}

export const migration0009Backbone: PortableMigration = { up };
