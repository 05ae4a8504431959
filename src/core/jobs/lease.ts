import type { DialectName } from '../db/database.js';
import type { UntypedDb, UntypedExpressions, UntypedQuery } from '../db/untyped.js';

/**
 * The claim that every durable queue here shares (jobs, webhook deliveries, e-mails, listener
 * retries): rows that are due, or whose worker's lease ran out, move to the running status with a
 * new lease and one more attempt, in one statement. On PostgreSQL the candidates are locked with
 * `FOR UPDATE SKIP LOCKED`, so instances never claim the same row at once; on SQLite the single
 * UPDATE is atomic on its own. The table needs the columns named below.
 */
export interface LeasedQueue {
  table: string;
  /** The status of rows waiting for their time (`pending`). */
  waiting: string;
  /** The status of a claimed row (`running`, `delivering`, `sending`). */
  running: string;
  /** The column holding the time a waiting row is due. */
  dueColumn: string;
}

/** Columns a leased queue has besides its due column. */
export interface LeasedRow {
  id: number | string;
  status: string;
  attempts: number;
  locked_until: number | null;
}

export interface ClaimOptions {
  now: number;
  leaseMs: number;
  limit: number;
  /** Narrows the candidates further (names with a handler, subscribers not busy...). */
  where?: (query: UntypedQuery) => UntypedQuery;
  /** Extra columns set on the claimed rows. */
  set?: Record<string, unknown>;
}

export async function claimLeased<Row>(
  db: UntypedDb,
  dialect: DialectName,
  queue: LeasedQueue,
  options: ClaimOptions,
): Promise<Row[]> {
  const { now, leaseMs, limit } = options;
  if (limit <= 0) return [];
  return db
    .updateTable(queue.table)
    .set((eb: UntypedExpressions) => ({
      ...(options.set ?? {}),
      status: queue.running,
      locked_until: now + leaseMs,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', (eb: UntypedExpressions) => {
      let candidates = eb
        .selectFrom(queue.table)
        .select('id')
        .where((w: UntypedExpressions) =>
          w.or([
            w.and([w('status', '=', queue.waiting), w(queue.dueColumn, '<=', now)]),
            w.and([w('status', '=', queue.running), w('locked_until', '<', now)]),
          ]),
        );
      if (options.where) candidates = options.where(candidates);
      candidates = candidates.orderBy(queue.dueColumn).orderBy('id').limit(limit);
      if (dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
      return candidates;
    })
    .returningAll()
    .execute() as Promise<Row[]>;
}

/**
 * The next attempt's time after a failure, or null when the retries are used up: `delays[i]` is
 * the wait after the (i+1)-th failed attempt.
 */
export function nextAttemptAt(now: number, attempts: number, delays: readonly number[]): number | null {
  const index = attempts - 1;
  return index < delays.length ? now + delays[index] : null;
}
