import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import type pg from 'pg';
import {
  GroupCommitDriver,
  GroupCommitSqliteDialect,
  type CommitObserver,
  type GroupCommitStats,
} from './group-commit.js';
import { nameStatements } from './pg-statements.js';

export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle, which dialect it speaks, and how to close it. */
export interface Database<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** SQLite: how many commits the group-commit driver made for how many transactions. */
  readonly groupCommit?: GroupCommitStats;
  /** SQLite: calls `observer` after each group commit (or its failure); returns the unsubscribe. */
  observeCommits?(observer: CommitObserver): () => void;
  close(): Promise<void>;
}

export function dialectOf(url: string): DialectName {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

let pgModule: Promise<typeof pg> | undefined;

/**
 * node-postgres, loaded on first use: a SQLite deployment never needs it, and loading it is a
 * measurable part of start time and memory.
 */
export function loadPg(): Promise<typeof pg> {
  pgModule ??= import('pg').then(({ default: pg }) => {
    // PostgreSQL returns int8 (count(*), bigint columns) as strings by default. Every bigint this
    // project stores is a millisecond timestamp or a counter well inside 2^53, so numbers are safe.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
    return pg;
  });
  return pgModule;
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (created if missing). Tests use one schema per app. */
  schema?: string;
  poolSize?: number;
  log?: KyselyConfig['log'];
  /**
   * PostgreSQL only: named statements outside transactions (pg-statements.ts); default on. A pooler
   * that cannot keep them (PgBouncer in transaction mode) is noticed and naming stops; off never
   * starts it.
   */
  preparedStatements?: boolean;
}

/**
 * Opens a database from a URL: `postgres://...` selects PostgreSQL, anything else is a SQLite
 * file path (`sqlite://path`, `file:path`, a bare path, or `:memory:`).
 */
export async function openDatabase<DB>(url: string, options: OpenOptions = {}): Promise<Database<DB>> {
  if (dialectOf(url) === 'postgres') return openPostgres<DB>(url, options);
  return openSqlite<DB>(url, options);
}

export function sqlitePath(url: string): string {
  const stripped = url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '');
  return stripped === '' ? ':memory:' : stripped;
}

/** What Kysely's SQLite driver uses of a prepared statement. */
type CachedStatement = Pick<SqliteDatabase.Statement, 'reader' | 'readonly' | 'all' | 'run' | 'iterate'>;

/**
 * better-sqlite3 builds each result row as an object property by property, which costs several
 * microseconds per row of a wide table (most of a 25-row page of `select *`). A reading statement
 * here returns raw arrays instead, and each row becomes an object through a function compiled once
 * per statement from its column names: an object literal of fixed shape, which V8 builds in a
 * fraction of the time. Same rows, same keys (a later duplicate name wins, as before). Column
 * names come from this project's SQL and are quoted with JSON.stringify; a column named
 * `__proto__` becomes a plain property (better-sqlite3's own rows would take it as the prototype).
 */
function withFastRows(statement: SqliteDatabase.Statement): CachedStatement {
  if (!statement.reader) return statement;
  const columns = statement.columns().map((c) => c.name);
  statement.raw(true);
  // `"__proto__": v` in a literal would set the prototype; the computed form defines a property.
  const key = (name: string) => (name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name));
  const toRow = new Function('r', `return {${columns.map((name, i) => `${key(name)}: r[${i}]`).join(', ')}};`) as (
    raw: unknown[],
  ) => Record<string, unknown>;
  return {
    reader: true,
    readonly: statement.readonly,
    all: ((...params: unknown[]) =>
      (statement.all(...params) as unknown[][]).map(toRow)) as SqliteDatabase.Statement['all'],
    run: statement.run.bind(statement),
    iterate: function* (...params: unknown[]) {
      for (const raw of statement.iterate(...params) as IterableIterator<unknown[]>) yield toRow(raw);
    } as SqliteDatabase.Statement['iterate'],
  };
}

/**
 * Kysely's SQLite driver prepares every query anew; compiling the same SQL again costs more than
 * running it. This keeps the most recently used prepared statements (queries are parameterised,
 * so the set of distinct SQL strings is small and bounded by the code).
 */
function withStatementCache(native: SqliteDatabase.Database, size = 500): SqliteDatabase.Database {
  const cache = new Map<string, CachedStatement>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = withFastRows(native.prepare(sql));
      if (cache.size >= size) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, statement);
    return statement;
  };
  return new Proxy(native, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * One connection per SQLite file per process: the group-commit driver batches everything that
 * reaches the file, and two connections of one process would wait on each other's write lock in
 * SQLite's busy handler, which blocks the event loop that has to commit. Tests that start several
 * "instances" on one file share it; each close gives one reference back.
 */
const sqliteFiles = new Map<string, { driver: GroupCommitDriver; refs: number; close(): void }>();

/** Rows per index that the planner's statistics are computed from (PRAGMA analysis_limit). */
export const ANALYSIS_LIMIT = 1000;

function openSqliteFile(file: string) {
  const key = file === ':memory:' ? undefined : path.resolve(file);
  const open = key && sqliteFiles.get(key);
  if (open) {
    open.refs += 1;
    return open;
  }
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const native = new SqliteDatabase(file);
  native.pragma('journal_mode = WAL');
  // FULL: a commit that answered 2xx is on disk even if the machine loses power right after.
  native.pragma('synchronous = FULL');
  native.pragma('foreign_keys = ON');
  native.pragma('busy_timeout = 5000');
  // Keep the planner's statistics current (SQLite's advice for long-lived connections): without
  // them, `account_id = ? and id in (...)` may walk an account-led index instead of the primary key.
  // The analysis samples at most ANALYSIS_LIMIT rows per index (SQLite's advice for large files):
  // unbounded, the ANALYZE at open after a large import reads every row before the service
  // answers (152 ms on a 64 MB file of 20,000 conversations, growing with the file; 45 ms here).
  native.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  native.pragma('optimize = 0x10002');
  const optimizer = setInterval(
    () => {
      try {
        native.pragma('optimize');
      } catch {
        /* busy or closing: try again next time */
      }
    },
    60 * 60 * 1000,
  );
  optimizer.unref();
  const driver = new GroupCommitDriver(withStatementCache(native));
  const entry = {
    driver,
    refs: 1,
    close() {
      if (--entry.refs > 0) return;
      if (key) sqliteFiles.delete(key);
      clearInterval(optimizer);
      driver.close();
    },
  };
  if (key) sqliteFiles.set(key, entry);
  return entry;
}

function openSqlite<DB>(url: string, options: OpenOptions): Database<DB> {
  const file = openSqliteFile(sqlitePath(url));
  const db = new Kysely<DB>({ dialect: new GroupCommitSqliteDialect(file.driver), log: options.log });
  return {
    db,
    dialect: 'sqlite',
    groupCommit: file.driver.stats,
    observeCommits: (observer) => file.driver.observeCommits(observer),
    async close() {
      await db.destroy();
      file.close();
    },
  };
}

async function openPostgres<DB>(url: string, options: OpenOptions): Promise<Database<DB>> {
  const pg = await loadPg();
  const schema = options.schema;
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  if (options.preparedStatements ?? true) nameStatements(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: options.log });
  return {
    db,
    dialect: 'postgres',
    async close() {
      await db.destroy();
    },
  };
}

/** Drops a PostgreSQL schema created for a test run. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const pg = await loadPg();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}
