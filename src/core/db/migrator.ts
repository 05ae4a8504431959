import { Migrator, sql, type DatabaseIntrospector, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName } from './database.js';
import type { UntypedDb } from './untyped.js';

/**
 * A migration written once for both dialects. It receives the dialect so the few column
 * types that differ (see `schema-helpers.ts`) can be chosen in one place.
 */
export interface PortableMigration {
  up(db: UntypedDb, dialect: DialectName): Promise<void>;
  down?(db: UntypedDb, dialect: DialectName): Promise<void>;
}

class StaticProvider implements MigrationProvider {
  constructor(
    private readonly migrations: Record<string, PortableMigration>,
    private readonly dialect: DialectName,
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(this.migrations)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        ...(m.down ? { down: (db: UntypedDb) => m.down!(db, this.dialect) } : {}),
      };
    }
    return out;
  }
}

/**
 * Start-up work on a PostgreSQL database (migrations, then rows a service makes sure exist) runs
 * under this session-level advisory lock, one instance at a time: two instances starting together
 * on an empty database would otherwise race in `create table if not exists` and in bootstrap
 * inserts. One key for both services, so two services pointed at one database meet here and the
 * second is told so (`ForeignDatabaseError`) instead of failing half-way.
 */
const STARTUP_LOCK = 0x504f4e54; // "PONT"

/** A service's database holds migrations the service does not know: another service's, or a newer version's. */
export class ForeignDatabaseError extends Error {}

/** Runs `work` holding the start-up lock (PostgreSQL); on SQLite the instance lock already makes it the only one. */
async function underStartupLock<T>(
  db: UntypedDb,
  dialect: DialectName,
  work: (db: UntypedDb) => Promise<T>,
): Promise<T> {
  if (dialect !== 'postgres') return work(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK}::bigint)`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK}::bigint)`.execute(connection);
    }
  });
}

export interface MigrateOptions {
  /** The service's name in a refusal ("the finance service's database ..."). */
  service?: string;
}

/**
 * Brings the database up to the latest migration; throws if any migration fails, and
 * `ForeignDatabaseError` before touching a database that ran migrations this list does not have.
 */
export async function migrateToLatest(
  db: UntypedDb,
  dialect: DialectName,
  migrations: Record<string, PortableMigration>,
  options: MigrateOptions = {},
): Promise<void> {
  await underStartupLock(db, dialect, (locked) => migrate(locked, dialect, migrations, options));
}

/**
 * Migrates, then runs `bootstrap` (rows the service needs, such as its platform app) under the same
 * start-up lock: instances starting together on one database do both one after the other, so a
 * bootstrap that checks and then inserts sees what the previous instance inserted.
 */
export async function prepareDatabase<T>(
  db: UntypedDb,
  dialect: DialectName,
  migrations: Record<string, PortableMigration>,
  bootstrap: (db: UntypedDb) => Promise<T>,
  options: MigrateOptions = {},
): Promise<T> {
  return underStartupLock(db, dialect, async (locked) => {
    await migrate(locked, dialect, migrations, options);
    return bootstrap(locked);
  });
}

async function migrate(
  db: UntypedDb,
  dialect: DialectName,
  migrations: Record<string, PortableMigration>,
  options: MigrateOptions,
): Promise<void> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables across every schema unless told which
  // one: name the connection's own, so databases holding several schemas (tests, shared hosts)
  // never see each other's migration state.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  await refuseForeign(db, dialect, migrations, migrationTableSchema, options.service ?? 'this');
  // Each module numbers its migrations in its own range (decisions/0014), and modules are built
  // side by side: a module whose range sorts before migrations a database already ran must still
  // be applied when it lands, not refused. Each migration depends only on tables of migrations
  // that sort before it, which ran earlier in every history.
  const migrator = new Migrator({
    db: migrationTableSchema === undefined ? db : withOwnSchemaIntrospection(db, migrationTableSchema),
    provider: new StaticProvider(migrations, dialect),
    migrationTableSchema,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `migration ${failed ?? '(unknown)'} failed: ${String(error instanceof Error ? error.message : error)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Kysely's migrator asks its introspector whether its bookkeeping tables exist, and the PostgreSQL
 * one reads every column of every schema of the database to answer: slow on a shared host, and it
 * fails ("schema does not exist", "column ... does not exist") when another schema is dropped or
 * altered meanwhile, as other services and tests sharing the database do. This handle answers
 * those two questions from the connection's own schema alone.
 */
function withOwnSchemaIntrospection(db: UntypedDb, schema: string): UntypedDb {
  const introspection: Pick<DatabaseIntrospector, 'getSchemas' | 'getTables'> = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () =>
      (
        await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = ${schema}`.execute(db)
      ).rows.map((row) => ({ name: row.name, schema, isView: false, columns: [] })),
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A database that ran migrations this service does not have is not one to migrate: Kysely would
 * call it corrupted. When most of what it ran is unknown here it is another service's (both
 * services pointed at one database); otherwise a newer version of Ponte migrated it.
 */
async function refuseForeign(
  db: UntypedDb,
  dialect: DialectName,
  migrations: Record<string, PortableMigration>,
  schema: string | undefined,
  service: string,
): Promise<void> {
  const exists =
    dialect === 'postgres'
      ? (await sql<{ found: string | null }>`select to_regclass(${`${schema}.kysely_migration`}) as found`.execute(db))
          .rows[0]?.found
      : (await sql`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db))
          .rows[0];
  if (!exists) return;
  const executed = (
    await sql<{
      name: string;
    }>`select name from ${sql.table(schema ? `${schema}.kysely_migration` : 'kysely_migration')}`.execute(db)
  ).rows.map((r) => r.name);
  const unknown = executed.filter((name) => !(name in migrations)).sort();
  if (unknown.length === 0) return;
  const shown =
    unknown.length > 3 ? `${unknown.slice(0, 3).join(', ')} and ${unknown.length - 3} more` : unknown.join(', ');
  const whose = `The ${service} service's database`;
  if (unknown.length * 2 > executed.length)
    throw new ForeignDatabaseError(
      `${whose} holds another service's data (its migrations ${shown} are not this service's). ` +
        'Each service needs its own database (or PostgreSQL schema): point CHAT_DATABASE_URL and ' +
        'FINANCE_DATABASE_URL at different databases.',
    );
  throw new ForeignDatabaseError(
    `${whose} was migrated by a newer version of Ponte (migrations ${shown} are unknown to this one): ` +
      'run that version, or restore the backup taken before the upgrade.',
  );
}
