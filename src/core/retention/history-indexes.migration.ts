import type { UntypedDb } from '../db/untyped.js';

/**
 * Indexes the history pruner's deletes use: ended deliveries and e-mails by age. (The outbox's
 * (dispatched_at, id) index already serves its part.) Each service's migrations call it once.
 */
export async function createHistoryIndexes(db: UntypedDb): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_finished_idx')
    .on('webhook_deliveries')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('outgoing_emails_finished_idx')
    .on('outgoing_emails')
    .columns(['status', 'created_at'])
    .execute();
}
