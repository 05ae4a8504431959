import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { createHistoryIndexes } from '../../../core/retention/history-indexes.migration.js';

/** Indexes for pruning old webhook deliveries and e-mails (core's HistoryPruner). */
export const migration0005HistoryIndexes: PortableMigration = { up: (db: Kysely<any>) => createHistoryIndexes(db) };
