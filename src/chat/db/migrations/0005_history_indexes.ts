import type { PortableMigration } from '../../../core/db/migrator.js';
import { createHistoryIndexes } from '../../../core/retention/history-indexes.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Indexes for pruning old webhook deliveries and e-mails (core's HistoryPruner). */
export const migration0005HistoryIndexes: PortableMigration = { up: (db: UntypedDb) => createHistoryIndexes(db) };
