import type { Kysely } from 'kysely';

/** The outbox table every service database carries (see outbox.migration.ts). */
export interface OutboxTable {
  id: import('kysely').Generated<number>;
  account_id: number | null;
  name: string;
  /** JSON text of the event payload. */
  payload: string;
  created_at: number;
  /** What produced the event when it is not a request (e.g. 'automation'); listeners may skip by it. */
  origin: string | null;
  /** Set once the dispatcher has handed the event to every listener. */
  dispatched_at: number | null;
  /** A listener's error while dispatching, kept for operators (the event is not retried). */
  dispatch_error: string | null;
}

export interface OutboxDatabase {
  outbox_events: OutboxTable;
}

export interface DomainEvent<P = unknown> {
  accountId: number | null;
  name: string;
  payload: P;
  /** Set when the change was made by automation rather than a request (see OutboxTable.origin). */
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
 * Records an event in the same transaction as the change it describes. If the transaction
 * rolls back, the event never existed; if it commits, the event will be dispatched, even after
 * a crash. Callers pass the open transaction (a `Transaction` is a `Kysely`), never the root handle.
 */
export async function emit<DB extends OutboxDatabase>(trx: Kysely<DB>, event: DomainEvent): Promise<void> {
  const db = trx as unknown as Kysely<OutboxDatabase>;
  await db
    .insertInto('outbox_events')
    .values({
      account_id: event.accountId,
      name: event.name,
      payload: JSON.stringify(event.payload),
      origin: event.origin ?? null,
      created_at: Date.now(),
      dispatched_at: null,
      dispatch_error: null,
    })
    .execute();
  for (const listener of writeListeners) listener();
}

/** Reads events not yet dispatched, oldest first. Used by the dispatcher and by tests. */
export async function pendingEvents(db: Kysely<OutboxDatabase>, limit = 100) {
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}
