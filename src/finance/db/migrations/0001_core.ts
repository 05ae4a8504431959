import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { createOutboxTable } from '../../../core/events/outbox.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** The finance service's first tables: the event outbox. Its domain tables come with its endpoints. */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await createOutboxTable(db, dialect);
}

export const migration0001: PortableMigration = { up };
