import type { JobDefinition } from '../jobs/jobs.js';
import type { OutboxTable } from '../events/outbox.js';
import type { OutgoingEmailsTable } from '../mail/outgoing-emails.js';
import type { WebhookDeliveriesTable } from '../webhooks/deliveries.js';
import type { UntypedDb, UntypedExpressions, UntypedQuery } from '../db/untyped.js';

/** The core tables every service has; the pruner needs nothing else. */
export interface HistoryTables {
  outbox_events: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  outgoing_emails: OutgoingEmailsTable;
}

export interface PruneCounts {
  events: number;
  deliveries: number;
  emails: number;
  retries: number;
  jobs: number;
}

export interface HistoryPrunerOptions {
  db: UntypedDb;
  /** How long finished history is kept (ms); 0 keeps it forever. */
  retentionMs: number;
  /** Rows per DELETE statement (default 1,000): short statements, so writers never wait long. */
  batchSize?: number;
}

const NOTHING: PruneCounts = { events: 0, deliveries: 0, emails: 0, retries: 0, jobs: 0 };

/**
 * Deletes the history of the outbox and the queues once it is older than the retention:
 * dispatched outbox events (unless a listener retry of theirs is still to run), webhook deliveries
 * and e-mails that ended, listener retries and one-off jobs that ended. Anything pending or in
 * flight is never touched. Each table is pruned in batches of short DELETE statements served by an
 * index on the time column, so pruning never scans a table nor holds a long lock. Every instance
 * may run it: two instances deleting the same rows is harmless. It runs as the hourly job
 * `core.history_retention` (see `historyRetentionJob`).
 */
export class HistoryPruner {
  constructor(private readonly options: HistoryPrunerOptions) {}

  async prune(now: number): Promise<PruneCounts> {
    if (this.options.retentionMs <= 0) return NOTHING;
    const cutoff = now - this.options.retentionMs;
    const batch = this.options.batchSize ?? 1000;
    const db = this.options.db;
    const prune = (table: string, time: string, narrow?: (q: UntypedQuery) => UntypedQuery) =>
      this.inBatches(async () => {
        const result = await db
          .deleteFrom(table)
          .where('id', 'in', (eb: UntypedExpressions) => {
            let ids = eb.selectFrom(table).select('id').where(time, 'is not', null).where(time, '<', cutoff);
            if (narrow) ids = narrow(ids);
            return ids.limit(batch);
          })
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }, batch);

    const deliveries = await prune('webhook_deliveries', 'created_at', (q) =>
      q.where('status', 'in', ['succeeded', 'failed', 'cancelled']),
    );
    const emails = await prune('outgoing_emails', 'created_at', (q) => q.where('status', 'in', ['sent', 'failed']));
    const retries = await prune('outbox_retries', 'finished_at', (q) =>
      q.where('status', 'in', ['succeeded', 'failed']),
    );
    const jobs = await prune('jobs', 'finished_at', (q) =>
      q.where('status', 'in', ['done', 'failed']).where('recurrence', 'is', null),
    );
    // Undispatched events have no dispatched_at; an event with a retry still to run is kept for it.
    const events = await prune('outbox_events', 'dispatched_at', (q) =>
      q.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('outbox_retries')
              .select('outbox_retries.id')
              .whereRef('outbox_retries.event_id', '=', 'outbox_events.id')
              .where('outbox_retries.status', 'in', ['pending', 'running']),
          ),
        ),
      ),
    );
    return { events, deliveries, emails, retries, jobs };
  }

  /** Repeats a batch delete until one deletes fewer rows than a full batch. */
  private async inBatches(deleteBatch: () => Promise<number>, batch: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await deleteBatch();
      total += deleted;
      if (deleted < batch) return total;
      await new Promise((resolve) => setImmediate(resolve)); // let requests in between batches
    }
  }
}

/** The hourly job that prunes history older than HISTORY_RETENTION_DAYS (0 keeps everything). */
export function historyRetentionJob(db: UntypedDb, retentionMs: number): JobDefinition {
  const pruner = new HistoryPruner({ db, retentionMs });
  return {
    name: 'core.history_retention',
    schedule: { every: 60 * 60_000 },
    async handle(_job, context) {
      const counts = await pruner.prune(context.now);
      if (Object.values(counts).some((n) => n > 0)) context.logger.info({ pruned: counts }, 'history pruned');
    },
  };
}
