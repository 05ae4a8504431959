import type { DialectName } from '../db/database.js';
import { addListenerRetries } from '../events/outbox.migration.js';
import { createJobsTable } from '../jobs/jobs.migration.js';
import { addEmailReplyToAndAttachments } from '../mail/outgoing-emails.migration.js';
import type { UntypedDb } from '../db/untyped.js';

/**
 * Brings a service database's core tables to the event backbone: per-listener outcomes and
 * retries (outbox refs, outbox_retries), the durable job queue, and e-mails that carry a Reply-To
 * and attachments (finance reports go through the queue too). Each service runs it once.
 */
export async function upgradeToBackbone(db: UntypedDb, dialect: DialectName): Promise<void> {
  await addListenerRetries(db, dialect);
  await createJobsTable(db, dialect);
  await addEmailReplyToAndAttachments(db);
}
