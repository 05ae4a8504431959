import { sql, type QueryExecutorProvider } from 'kysely';

export type SavepointResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `body` under a savepoint of the caller's transaction: released when it succeeds, rolled
 * back (alone: the transaction and other savepoints keep their work) when it throws. Never throws
 * the body's error itself: the caller decides what a failure means (record it, retry, rethrow).
 * Used wherever one piece of a batch may fail without costing the others their work: an outbox
 * listener, an automation rule, a campaign's recipient.
 */
export async function inSavepoint<T>(
  trx: QueryExecutorProvider,
  name: string,
  body: () => Promise<T>,
): Promise<SavepointResult<T>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad savepoint name ${name}`);
  const savepoint = sql.raw(name);
  await sql`savepoint ${savepoint}`.execute(trx);
  try {
    const value = await body();
    await sql`release savepoint ${savepoint}`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    await sql`rollback to savepoint ${savepoint}`.execute(trx);
    await sql`release savepoint ${savepoint}`.execute(trx);
    return { ok: false, error };
  }
}
