import type { Kysely, Generated } from 'kysely';
import type { UntypedTransaction } from '../db/untyped.js';

/** The outbox table every service database carries (see outbox.migration.ts). */
export interface OutboxTable {
  id: Generated<number>;
  account_id: number | null;
  name: string;
  /** JSON text: the snapshot webhooks send, as it was at the time of the change. */
  payload: string;
  /** JSON text: the ids (and few facts) internal listeners read, then refetch by. */
  refs: string;
  created_at: number;
  /** What produced the event when it is not a request (e.g. 'automation'); listeners may skip by it. */
  origin: string | null;
  /** Set once every listener has handled the event (or has a retry of its own scheduled). */
  dispatched_at: number | null;
  /** Unused since listeners keep their own outcome (outbox_retries); kept for old rows. */
  dispatch_error: string | null;
}

export interface OutboxDatabase {
  outbox_events: OutboxTable;
}

/**
 * A service's event catalogue: each event name maps to its `refs` (ids, for listeners that refetch)
 * and its `snapshot` (the body webhooks send). A listener can then only read what an event carries,
 * and renaming a field is a compile error rather than a silent break. A catalogue is an interface,
 * so modules may add their events to it by declaration merging.
 */
export type EventMap<M> = { [K in keyof M]: { refs: object; snapshot: object } };

/** An event to record: its name, account, refs and snapshot. */
export interface NewEvent<M extends EventMap<M>, N extends keyof M & string = keyof M & string> {
  accountId: number | null;
  name: N;
  refs: M[N]['refs'];
  snapshot: M[N]['snapshot'];
  /** Set when automation rather than a request made the change (see OutboxTable.origin). */
  origin?: string | null;
}

const writeListeners = new Set<() => void>();

/**
 * Subscribes to "an event was just recorded" in this process (the dispatcher uses it to look
 * sooner than its next poll). The write may not be committed yet when this fires.
 */
export function onOutboxWrite(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/**
 * The `emit` of a service's catalogue. It records an event in the transaction of the change it
 * describes (the type demands a transaction): if the transaction rolls back, the event never
 * existed; if it commits, every listener will handle it, even after a crash.
 */
export function eventRecorder<M extends EventMap<M>>() {
  return async function emit<N extends keyof M & string>(
    trx: UntypedTransaction,
    event: NewEvent<M, N>,
  ): Promise<void> {
    const db = trx as unknown as Kysely<OutboxDatabase>;
    await db
      .insertInto('outbox_events')
      .values({
        account_id: event.accountId,
        name: event.name,
        payload: JSON.stringify(event.snapshot),
        refs: JSON.stringify(event.refs),
        origin: event.origin ?? null,
        created_at: Date.now(),
        dispatched_at: null,
        dispatch_error: null,
      })
      .execute();
    for (const listener of writeListeners) listener();
  };
}

/** Reads events not yet dispatched, oldest first (tests). */
export async function pendingEvents(db: Kysely<OutboxDatabase>, limit = 100) {
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}
