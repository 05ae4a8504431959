import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { OutboxTable } from '../events/outbox.js';
import type { OutgoingEmailsTable } from '../mail/outgoing-emails.js';
import type { WebhookDeliveriesTable } from '../webhooks/deliveries.js';

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
}

export interface HistoryPrunerOptions {
  db: Kysely<any>;
  logger: FastifyBaseLogger;
  /** How long finished history is kept (ms); 0 keeps it forever. */
  retentionMs: number;
  /** How often to prune (ms; default an hour). */
  intervalMs?: number;
  /** Rows per DELETE statement (default 1,000): short statements, so writers never wait long. */
  batchSize?: number;
  clock?: () => number;
}

/**
 * Deletes the history of the outbox and the delivery queues once it is older than the retention:
 * dispatched outbox events, webhook deliveries that ended (succeeded, failed, cancelled), e-mails
 * that ended (sent, failed). Anything still pending or in flight is never touched. Each table is
 * pruned in batches of short DELETE statements served by an index on (status, created_at) or
 * (dispatched_at, id), so pruning never scans a table nor holds a long lock. Every instance may run
 * it: two instances deleting the same rows is harmless.
 */
export class HistoryPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PruneCounts> | null = null;

  constructor(private readonly options: HistoryPrunerOptions) {}

  start(): void {
    if (this.options.retentionMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runSafely(), this.options.intervalMs ?? 60 * 60_000);
    this.timer.unref?.();
    void this.runSafely();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Prunes now (tests and tools); concurrent calls share one run. */
  prune(): Promise<PruneCounts> {
    if (!this.running) this.running = this.pruneOnce().finally(() => (this.running = null));
    return this.running;
  }

  private async runSafely(): Promise<void> {
    try {
      const counts = await this.prune();
      if (counts.events + counts.deliveries + counts.emails > 0) this.options.logger.info({ pruned: counts }, 'history pruned');
    } catch (err) {
      this.options.logger.warn({ err }, 'history pruning failed');
    }
  }

  private async pruneOnce(): Promise<PruneCounts> {
    if (this.options.retentionMs <= 0) return { events: 0, deliveries: 0, emails: 0 };
    const cutoff = (this.options.clock ?? Date.now)() - this.options.retentionMs;
    const batch = this.options.batchSize ?? 1000;
    const prune = (table: keyof HistoryTables, time: 'created_at' | 'dispatched_at', endedStatuses?: string[]) =>
      this.inBatches(async () => {
        // The tables differ (only two have a status): the builder is untyped here.
        const result = await this.options.db
          .deleteFrom(table)
          .where('id', 'in', (eb: ExpressionBuilder<any, any>) => {
            let ids = eb.selectFrom(table).select('id').where(time, 'is not', null).where(time, '<', cutoff);
            if (endedStatuses) ids = ids.where('status', 'in', endedStatuses);
            return ids.limit(batch);
          })
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }, batch);

    const deliveries = await prune('webhook_deliveries', 'created_at', ['succeeded', 'failed', 'cancelled']);
    const emails = await prune('outgoing_emails', 'created_at', ['sent', 'failed']);
    const events = await prune('outbox_events', 'dispatched_at'); // undispatched events have no dispatched_at
    return { events, deliveries, emails };
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
