import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction, Generated } from 'kysely';
import { inSavepoint } from '../db/savepoint.js';
import { PollLoop } from '../background/poll-loop.js';
import type { DialectName } from '../db/database.js';
import { claimLeased, nextAttemptAt } from '../jobs/lease.js';
import { onOutboxWrite, type EventMap, type OutboxDatabase, type OutboxTable } from './outbox.js';

/** An event as listeners receive it: typed by the service's catalogue. */
export interface DispatchedEvent<M extends EventMap<M>, N extends keyof M & string = keyof M & string> {
  id: number;
  accountId: number | null;
  name: N;
  refs: M[N]['refs'];
  snapshot: M[N]['snapshot'];
  origin: string | null;
  createdAt: number;
}

/** One of the named events, discriminated by `name`. */
export type EventOf<M extends EventMap<M>, N extends keyof M & string = keyof M & string> = {
  [K in N]: DispatchedEvent<M, K>;
}[N];

/**
 * A consumer of events, with one concern (webhook fan-out, automation, realtime push, scoring...).
 * `handle` is durable work: it runs in the dispatch transaction under a savepoint of its own, so
 * what it writes commits with the event being marked handled (once per event and listener); if it
 * throws, only its own work is undone and it is retried later on its own, with backoff. No network
 * calls in `handle` (queue a delivery or an e-mail instead). `afterCommit` is best-effort work after
 * the commit (realtime push): errors are logged, never retried.
 */
export interface EventListener<DB, M extends EventMap<M>, N extends keyof M & string = keyof M & string> {
  /** Unique per service: a listener's retries are kept under it. */
  readonly name: string;
  /** The events it wants (default: all). */
  readonly events?: readonly N[];
  handle?(trx: Transaction<DB>, event: EventOf<M, N>): Promise<void>;
  afterCommit?(event: EventOf<M, N>): void | Promise<void>;
}

/** Declares a listener of a catalogue, typing its events from the names it lists. */
export function listenerOf<DB, M extends EventMap<M>>() {
  return <N extends keyof M & string>(listener: EventListener<DB, M, N>): EventListener<DB, M> =>
    listener as unknown as EventListener<DB, M>;
}

export interface OutboxRetriesTable {
  id: Generated<number>;
  event_id: number;
  listener: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface EventsDatabase extends OutboxDatabase {
  outbox_retries: OutboxRetriesTable;
}

export interface DispatcherOptions<DB extends EventsDatabase, M extends EventMap<M>> {
  db: Kysely<DB>;
  dialect: DialectName;
  listeners: readonly EventListener<DB, M>[];
  logger: FastifyBaseLogger;
  clock?: () => number;
  /** How often an idle dispatcher looks for new events and due retries (ms). */
  pollIntervalMs?: number;
  /** Events claimed at once. */
  batchSize?: number;
  /** A batch stops taking further events once its transaction has run this long (ms). */
  maxBatchMs?: number;
  /** Waits before each retry of a failed listener; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** Called after each committed batch (e.g. to wake the delivery worker). */
  onDispatched?: (events: readonly DispatchedEvent<M>[]) => void;
}

export const DEFAULT_LISTENER_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000] as const;
const RETRY_LEASE_MS = 60_000;

type Row = OutboxTable & { id: number };
type Retry = OutboxRetriesTable & { id: number };

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * Moves events from the outbox to listeners. A batch of events is claimed in one short
 * transaction (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so instances share the work without taking
 * the same event); each listener handles each event under its own savepoint; the event is marked
 * dispatched in the same commit. A listener that throws is rolled back alone and gets a retry row
 * (`outbox_retries`, unique per event and listener), run later in its own transaction with backoff
 * until it succeeds or its retries run out (then `failed`, logged with the event id). A crash
 * before a commit leaves everything of that transaction undone: the events (or the retries) are
 * handled again, and only by the listeners that had not committed.
 */
export class OutboxDispatcher<DB extends EventsDatabase, M extends EventMap<M>> {
  private readonly db: Kysely<EventsDatabase>;
  private readonly loop: PollLoop;
  private readonly byName = new Map<string, EventListener<DB, M>>();
  private readonly clock: () => number;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: DispatcherOptions<DB, M>) {
    this.db = options.db as unknown as Kysely<EventsDatabase>;
    this.clock = options.clock ?? Date.now;
    for (const listener of options.listeners) {
      if (this.byName.has(listener.name)) throw new Error(`listener ${listener.name} is registered twice`);
      this.byName.set(listener.name, listener);
    }
    const idle = options.pollIntervalMs ?? 100;
    this.loop = new PollLoop(
      async () => {
        const dispatched = await this.dispatchBatch();
        const retried = await this.retryDue();
        return dispatched + retried > 0 ? 0 : idle;
      },
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

  /** Dispatches until the outbox is empty (retries that are due included); returns how many events. For tests and tools. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.dispatchBatch();
      const r = await this.retryDue();
      total += n;
      if (n === 0 && r === 0) return total;
    }
  }

  private wants(listener: EventListener<DB, M>, name: string): boolean {
    return listener.events === undefined || (listener.events as readonly string[]).includes(name);
  }

  private toEvent(row: Row): DispatchedEvent<M> {
    return {
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      snapshot: JSON.parse(row.payload),
      refs: JSON.parse(row.refs ?? '{}'),
      origin: row.origin,
      createdAt: row.created_at,
    } as unknown as DispatchedEvent<M>;
  }

  /** Runs one listener on one event under a savepoint; returns its error, its work undone, or null. */
  private async runListener(
    trx: Transaction<EventsDatabase>,
    listener: EventListener<DB, M>,
    event: DispatchedEvent<M>,
  ): Promise<string | null> {
    const handled = await inSavepoint(trx, 'outbox_listener', () =>
      listener.handle!(trx as unknown as Transaction<DB>, event as EventOf<M>),
    );
    if (handled.ok) return null;
    this.options.logger.error(
      { err: handled.error, eventId: event.id, event: event.name, listener: listener.name },
      'event listener failed; it will be retried',
    );
    return describe(handled.error);
  }

  /** One batch: claim, let every listener handle each event, mark dispatched, commit; then the after-commit work. */
  async dispatchBatch(): Promise<number> {
    const maxBatchMs = this.options.maxBatchMs ?? 50;
    const delays = this.options.retryDelaysMs ?? DEFAULT_LISTENER_RETRY_DELAYS_MS;
    const events = await this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('outbox_events')
        .selectAll()
        .where('dispatched_at', 'is', null)
        .orderBy('id')
        .limit(this.options.batchSize ?? 25);
      if (this.options.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const rows = (await query.execute()) as Row[];
      const started = Date.now();
      const done: DispatchedEvent<M>[] = [];
      for (const row of rows) {
        // Keep the transaction short: the rest waits for the next batch.
        if (done.length > 0 && Date.now() - started > maxBatchMs) break;
        const event = this.toEvent(row);
        const now = this.clock();
        for (const listener of this.byName.values()) {
          if (!listener.handle || !this.wants(listener, event.name)) continue;
          const error = await this.runListener(trx, listener, event);
          if (error === null) continue;
          const retryAt = nextAttemptAt(now, 1, delays);
          await trx
            .insertInto('outbox_retries')
            .values({
              event_id: event.id,
              listener: listener.name,
              status: retryAt === null ? 'failed' : 'pending',
              attempts: 1,
              next_attempt_at: retryAt ?? now,
              locked_until: null,
              last_error: error,
              created_at: now,
              finished_at: retryAt === null ? now : null,
            })
            .execute();
        }
        await trx.updateTable('outbox_events').set({ dispatched_at: now }).where('id', '=', row.id).execute();
        done.push(event);
      }
      return done;
    });
    if (events.length > 0) this.options.onDispatched?.(events);
    for (const event of events) await this.afterCommit(event);
    return events.length;
  }

  private async afterCommit(event: DispatchedEvent<M>): Promise<void> {
    for (const listener of this.byName.values()) {
      if (!listener.afterCommit || !this.wants(listener, event.name)) continue;
      try {
        await listener.afterCommit(event as EventOf<M>);
      } catch (err) {
        this.options.logger.warn({ err, eventId: event.id, listener: listener.name }, 'after-commit listener failed');
      }
    }
  }

  /** Runs the listener retries that are due, each in its own transaction; returns how many ran. */
  async retryDue(): Promise<number> {
    const names = [...this.byName.keys()];
    const claimed = await claimLeased<Retry>(
      this.db,
      this.options.dialect,
      { table: 'outbox_retries', waiting: 'pending', running: 'running', dueColumn: 'next_attempt_at' },
      {
        now: this.clock(),
        leaseMs: RETRY_LEASE_MS,
        limit: 10,
        where: (q) => q.where('listener', 'in', names),
      },
    );
    for (const retry of claimed) await this.retry(retry);
    return claimed.length;
  }

  private async retry(retry: Retry): Promise<void> {
    const listener = this.byName.get(retry.listener)!;
    const delays = this.options.retryDelaysMs ?? DEFAULT_LISTENER_RETRY_DELAYS_MS;
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock();
      // Still this worker's (a lease that ran out may have passed to another); on PostgreSQL the
      // row stays locked until this transaction ends.
      const mine = await trx
        .updateTable('outbox_retries')
        .set({ locked_until: now + RETRY_LEASE_MS })
        .where('id', '=', retry.id)
        .where('status', '=', 'running')
        .where('attempts', '=', retry.attempts)
        .executeTakeFirst();
      if (Number(mine.numUpdatedRows) === 0) return;
      const row = (await trx
        .selectFrom('outbox_events')
        .selectAll()
        .where('id', '=', retry.event_id)
        .executeTakeFirst()) as Row | undefined;
      const error = row ? await this.runListener(trx, listener, this.toEvent(row)) : 'the event no longer exists';
      const retryAt = error === null ? null : nextAttemptAt(now, retry.attempts, delays);
      const status = error === null ? 'succeeded' : retryAt === null ? 'failed' : 'pending';
      await trx
        .updateTable('outbox_retries')
        .set({
          status,
          next_attempt_at: retryAt ?? now,
          locked_until: null,
          last_error: error,
          finished_at: status === 'pending' ? null : now,
        })
        .where('id', '=', retry.id)
        .execute();
      if (status === 'failed') {
        this.options.logger.error(
          { eventId: retry.event_id, listener: retry.listener, attempts: retry.attempts, error },
          'event listener gave up',
        );
      }
    });
  }
}
