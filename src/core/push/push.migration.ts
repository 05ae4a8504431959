import type { PortableMigration } from '../db/migrator.js';
import type { UntypedDb } from '../db/untyped.js';

/**
 * Push deliveries are jobs (push.jobs.ts); /metrics counts them by status. This index serves that
 * count without reading the other jobs. Listed by the conversation service as 0190_push_deliveries
 * and by the finance service as 0035_push_deliveries (both services' /metrics ask).
 */
export const pushDeliveriesMigration: PortableMigration = {
  async up(db: UntypedDb) {
    await db.schema.createIndex('jobs_name_status_idx').on('jobs').columns(['name', 'status']).execute();
  },
};
