import type { Kysely, Transaction } from 'kysely';

/**
 * Runs `fn` in the caller's transaction when one is given, else in a new one. Service methods that
 * other work may need to join (automation actions inside an event's transaction, a job that does
 * several things at once) take an optional `trx` and pass it here: the executor is explicit, and a
 * method never opens a nested transaction of its own inside someone else's.
 */
export function inTransaction<DB, T>(
  db: Kysely<DB>,
  trx: Transaction<DB> | undefined,
  fn: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return trx ? fn(trx) : db.transaction().execute(fn);
}
