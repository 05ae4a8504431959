import type { OutboxRetriesTable } from '../events/dispatcher.js';
import type { OutboxTable } from '../events/outbox.js';
import type { JobsTable } from '../jobs/jobs.migration.js';
import type { OutgoingEmailsTable } from '../mail/outgoing-emails.js';
import type { RateLimitBucketsTable } from '../security/rate-limit.js';
import type { WebhookDeliveriesTable } from '../webhooks/deliveries.js';

/** The tables core's machinery keeps in every service's database (events, jobs, deliveries, e-mail, rate limits). */
export interface CoreTables {
  outbox_events: OutboxTable;
  outbox_retries: OutboxRetriesTable;
  jobs: JobsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  outgoing_emails: OutgoingEmailsTable;
  rate_limit_buckets: RateLimitBucketsTable;
}
