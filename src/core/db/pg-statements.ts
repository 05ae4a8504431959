import type pg from 'pg';

/**
 * PostgreSQL parses and plans every statement Kysely sends, since node-postgres sends them
 * unnamed. For the short reads of a list page that is a large part of the server's work: named
 * (prepared) statements let each connection parse a statement once and reuse its plan, which the
 * server re-plans by itself when the schema changes.
 *
 * Only statements outside transactions are named. A schema change that alters the columns of a
 * prepared `select *` (another instance migrating during a rolling upgrade) fails its next run with
 * "cached plan must not change result type" (SQLSTATE 0A000). Outside a transaction that failure
 * changed nothing, so the statement is sent again under a new name, which every connection then
 * prepares afresh; inside one it would abort the transaction, so transactions keep unnamed
 * statements. Statements without parameters (raw SQL, which may hold several statements) and
 * anything other than select, insert, update, delete and with are left as they are. When the server
 * turns out not to keep a connection's statements (a pooler in transaction mode), the statement
 * runs again unnamed and the pool stops naming.
 */

const NAMED = /^\s*(select|insert|update|delete|with)\b/i;
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
/** Ends the transaction; `rollback to savepoint …` does not. */
const ENDS = /^\s*(commit|end|abort|rollback)(\s+(work|transaction))?\s*;?\s*$/i;
const PLAN_CHANGED = '0A000';
/**
 * The server does not have the statement the connection prepared (26000), or already has one of
 * that name (42P05): something between them, such as PgBouncer in transaction mode, hands the
 * connection's statements to other server sessions. Naming stops for the pool.
 */
const NOT_KEPT = new Set(['26000', '42P05']);

/** The name of each statement text, shared by the connections of a pool. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private next = 0;
  private stopped = false;

  /** At most `limit` texts get a name (each connection keeps a plan per name it has run). */
  constructor(private readonly limit = 500) {}

  get size(): number {
    return this.names.size;
  }

  nameOf(text: string): string | undefined {
    if (this.stopped) return undefined;
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.limit) return known;
    return this.rename(text);
  }

  /** Names nothing from now on: every statement is sent unnamed, as node-postgres does by itself. */
  stop(): void {
    this.stopped = true;
    this.names.clear();
  }

  /** A new name for `text`: every connection prepares it again on its next run. */
  rename(text: string): string {
    const name = `ponte_${(this.next += 1)}`;
    this.names.set(text, name);
    return name;
  }
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes the pool's connections run statements outside transactions as named statements. */
export function nameStatements(pool: pg.Pool, names = new StatementNames()): StatementNames {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    let inTransaction = false;
    const named: Query = (config, values, callback) => {
      if (typeof config !== 'string' || !Array.isArray(values) || typeof callback === 'function') {
        return query(config, values, callback);
      }
      if (BEGINS.test(config)) inTransaction = true;
      else if (ENDS.test(config)) inTransaction = false;
      const name = !inTransaction && values.length > 0 && NAMED.test(config) ? names.nameOf(config) : undefined;
      if (name === undefined) return query(config, values);
      return (query({ name, text: config, values }) as Promise<unknown>).catch((error: unknown) => {
        // Outside a transaction the failed run changed nothing, so it may run again.
        const code = (error as { code?: unknown } | null)?.code;
        if (code === PLAN_CHANGED) return query({ name: names.rename(config), text: config, values });
        if (typeof code === 'string' && NOT_KEPT.has(code)) {
          names.stop();
          return query(config, values);
        }
        throw error;
      });
    };
    (client as unknown as { query: Query }).query = named;
  });
  return names;
}
