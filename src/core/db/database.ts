import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle, which dialect it speaks, and how to close it. */
export interface Database<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export function dialectOf(url: string): DialectName {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

// PostgreSQL returns int8 (count(*), bigint columns) as strings by default. Every bigint this
// project stores is a millisecond timestamp or a counter well inside 2^53, so numbers are safe.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (created if missing). Tests use one schema per app. */
  schema?: string;
  poolSize?: number;
  log?: KyselyConfig['log'];
}

/**
 * Opens a database from a URL: `postgres://...` selects PostgreSQL, anything else is a SQLite
 * file path (`sqlite://path`, `file:path`, a bare path, or `:memory:`).
 */
export async function openDatabase<DB>(url: string, options: OpenOptions = {}): Promise<Database<DB>> {
  if (dialectOf(url) === 'postgres') return openPostgres<DB>(url, options);
  return openSqlite<DB>(url, options);
}

function sqlitePath(url: string): string {
  const stripped = url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '');
  return stripped === '' ? ':memory:' : stripped;
}

function openSqlite<DB>(url: string, options: OpenOptions): Database<DB> {
  const file = sqlitePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const native = new SqliteDatabase(file);
  native.pragma('journal_mode = WAL');
  // FULL: a commit that answered 2xx is on disk even if the machine loses power right after.
  native.pragma('synchronous = FULL');
  native.pragma('foreign_keys = ON');
  native.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: native }), log: options.log });
  return {
    db,
    dialect: 'sqlite',
    async close() {
      await db.destroy();
    },
  };
}

async function openPostgres<DB>(url: string, options: OpenOptions): Promise<Database<DB>> {
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
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}
