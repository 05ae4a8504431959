import { PollLoop } from '../background/poll-loop.js';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DialectName } from '../db/database.js';
import { onOutboxWrite, type OutboxDatabase } from './outbox.js';

/** An event as listeners receive it: the outbox row with its payload parsed. */
export interface OutboxEvent {
  id: number;
  accountId: number | null;
  name: string;
  payload: Record<string, unknown>;
  origin: string | null;
  createdAt: number;
}

/**
 * A consumer of outbox events. Listeners hold one concern each (webhook fan-out, automation,
 * realtime push) and are given ids and payloads, never live rows.
 */
export interface EventListener<DB> {
  readonly name: string;
  /**
   * Durable follow-up work, run inside the dispatch transaction: whatever it writes commits
   * together with the event being marked dispatched, so it happens exactly once per event.
   * No network calls here.
   */
  inTransaction?(trx: Kysely<DB>, event: OutboxEvent): Promise<void>;
  /** Best-effort work after the dispatch commit (realtime push). Errors are logged, not retried. */
  afterCommit?(event: OutboxEvent): void | Promise<void>;
}

export interface DispatcherOptions<DB extends OutboxDatabase> {
  db: Kysely<DB>;
  dialect: DialectName;
  listeners: readonly EventListener<DB>[];
  logger: FastifyBaseLogger;
  /** How often an idle dispatcher looks for new events (ms). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Called after each committed batch (e.g. to wake the delivery worker). */
  onDispatched?: (events: readonly OutboxEvent[]) => void;
}

/**
 * Moves events from the outbox to listeners. Each batch is claimed in one transaction (with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL, so several instances share the work without taking the
 * same event), each event's `inTransaction` work runs under a savepoint (a failing listener marks
 * that event with its error instead of blocking the queue), and the batch is marked dispatched in
 * the same commit. A crash before the commit leaves the events pending: they are dispatched again
 * after restart, and nothing they wrote was committed.
 */
export class OutboxDispatcher<DB extends OutboxDatabase> {
  private readonly db: Kysely<OutboxDatabase>;
  private readonly loop: PollLoop;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: DispatcherOptions<DB>) {
    this.db = options.db as unknown as Kysely<OutboxDatabase>;
    const idle = options.pollIntervalMs ?? 100;
    this.loop = new PollLoop(
      async () => ((await this.dispatchBatch()) > 0 ? 0 : idle),
      (err) => options.logger.error({ err }, 'outbox dispatch failed'),
      Math.max(idle, 1000),
    );
  }

  start(): void {
    if (this.unsubscribe) return;
    // A write in this process: look again shortly (after its transaction has had time to commit).
    this.unsubscribe = onOutboxWrite(() => this.poke(2));
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.loop.stop();
  }

  /** Asks for a pass soon (after a write that recorded events). */
  poke(delayMs = 0): void {
    this.loop.poke(delayMs);
  }

  /** Dispatches until the outbox is empty; returns how many events were dispatched. For tests and tools. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.dispatchBatch();
      total += n;
      if (n === 0) return total;
    }
  }

  /** One batch: claim, run listeners, mark dispatched, commit; then the after-commit work. */
  async dispatchBatch(): Promise<number> {
    const { listeners, dialect } = this.options;
    const batchSize = this.options.batchSize ?? 100;
    const events = await this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('outbox_events')
        .selectAll()
        .where('dispatched_at', 'is', null)
        .orderBy('id')
        .limit(batchSize);
      if (dialect === 'postgres') query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      const now = Date.now();
      const done: OutboxEvent[] = [];
      for (const row of rows) {
        const event: OutboxEvent = {
          id: row.id,
          accountId: row.account_id,
          name: row.name,
          payload: JSON.parse(row.payload) as Record<string, unknown>,
          origin: row.origin,
          createdAt: row.created_at,
        };
        let error: string | null = null;
        await sql`savepoint outbox_event`.execute(trx);
        try {
          for (const listener of listeners) {
            if (listener.inTransaction) await listener.inTransaction(trx as unknown as Kysely<DB>, event);
          }
          await sql`release savepoint outbox_event`.execute(trx);
        } catch (err) {
          await sql`rollback to savepoint outbox_event`.execute(trx);
          await sql`release savepoint outbox_event`.execute(trx);
          error = err instanceof Error ? err.message : String(err);
          this.options.logger.error({ err, eventId: event.id, event: event.name }, 'outbox listener failed');
        }
        await trx
          .updateTable('outbox_events')
          .set({ dispatched_at: now, dispatch_error: error })
          .where('id', '=', row.id)
          .execute();
        done.push(event);
      }
      return done;
    });
    if (events.length > 0) this.options.onDispatched?.(events);
    for (const event of events) {
      for (const listener of listeners) {
        if (!listener.afterCommit) continue;
        try {
          await listener.afterCommit(event);
        } catch (err) {
          this.options.logger.warn({ err, eventId: event.id, listener: listener.name }, 'after-commit listener failed');
        }
      }
    }
    return events.length;
  }
}
