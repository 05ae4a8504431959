import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName } from './database.js';

/**
 * A migration written once for both dialects. It receives the dialect so the few column
 * types that differ (see `schema-helpers.ts`) can be chosen in one place.
 */
export interface PortableMigration {
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<any>, dialect: DialectName): Promise<void>;
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
        ...(m.down ? { down: (db: Kysely<any>) => m.down!(db, this.dialect) } : {}),
      };
    }
    return out;
  }
}

/** Brings the database up to the latest migration; throws if any migration fails. */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  migrations: Record<string, PortableMigration>,
): Promise<void> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables across every schema unless told which
  // one: name the connection's own, so databases holding several schemas (tests, shared hosts)
  // never see each other's migration state.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  // Each module numbers its migrations in its own range (decisions/0014), and modules are built
  // side by side: a module whose range sorts before migrations a database already ran must still
  // be applied when it lands, not refused. Each migration depends only on tables of migrations
  // that sort before it, which ran earlier in every history.
  const migrator = new Migrator({
    db,
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
