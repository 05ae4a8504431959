import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DATABASE_URL, testDialect, type TestDatabase } from '../../../test/helpers/test-app.js';
import { dropPostgresSchema, openDatabase } from './database.js';
import { ForeignDatabaseError, migrateToLatest, type PortableMigration } from './migrator.js';

const table = (name: string): PortableMigration => ({
  up: (db) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute(),
});

let database: TestDatabase<any>;
beforeAll(async () => {
  database = await openTestDatabase<any>('migrator');
});
afterAll(async () => {
  await database.close();
});

describe('migrateToLatest', () => {
  it("applies a module's migrations that sort before ones the database already ran", async () => {
    await migrateToLatest(database.db, database.dialect, {
      '0001_core': table('core_t'),
      '0120_late': table('late_t'),
    });
    // A module built alongside lands later with a lower range.
    await migrateToLatest(database.db, database.dialect, {
      '0001_core': table('core_t'),
      '0100_module': table('module_t'),
      '0120_late': table('late_t'),
    });
    const names = (await database.db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map(
      (r: { name: string }) => r.name,
    );
    expect(names).toEqual(['0001_core', '0100_module', '0120_late']);
    await database.db.selectFrom('module_t').selectAll().execute();
  });

  it("refuses another service's database, and a newer version's, saying which and what to do", async () => {
    const other = await openTestDatabase<any>('migrator_other');
    try {
      const theirs = {
        '0001_core': table('their_core'),
        '0002_contacts': table('their_contacts'),
        '0003_webhooks': table('their_webhooks'),
        '0004_inboxes': table('their_inboxes'),
        '0005_teams': table('their_teams'),
      };
      await migrateToLatest(other.db, other.dialect, theirs);
      const ours = { '0001_core': table('our_core'), '0002_identity': table('our_identity') };
      const refusal = migrateToLatest(other.db, other.dialect, ours, { service: 'finance' });
      await expect(refusal).rejects.toThrow(ForeignDatabaseError);
      await expect(refusal).rejects.toThrow(
        "The finance service's database holds another service's data (its migrations 0002_contacts, 0003_webhooks, " +
          "0004_inboxes and 1 more are not this service's). Each service needs its own database (or PostgreSQL schema)",
      );
      // Nothing of ours was created.
      await expect(other.db.selectFrom('our_identity').selectAll().execute()).rejects.toThrow();

      // Most of what it ran is known here: a newer version migrated it.
      const older = { ...theirs } as Record<string, PortableMigration>;
      delete older['0005_teams'];
      await expect(migrateToLatest(other.db, other.dialect, older, { service: 'conversation' })).rejects.toThrow(
        "The conversation service's database was migrated by a newer version of Ponte (migrations 0005_teams are unknown to this one)",
      );
    } finally {
      await other.close();
    }
  });

  it.skipIf(testDialect !== 'postgres')(
    "checks its bookkeeping tables in its own schema, never by reading every schema's columns",
    async () => {
      // Kysely's introspector reads the columns of every schema of the database: slow on a shared
      // host, and it fails when another schema is dropped meanwhile (as other services' and tests' are).
      const schema = `t_migrator_scan_${Date.now().toString(36)}`;
      const statements: string[] = [];
      const own = await openDatabase<any>(TEST_DATABASE_URL, {
        schema,
        log: (event) => void statements.push(event.query.sql),
      });
      try {
        await migrateToLatest(own.db, own.dialect, { '0001_core': table('scanned_t') });
        await migrateToLatest(own.db, own.dialect, { '0001_core': table('scanned_t') });
        expect(statements.filter((text) => /pg_attribute|pg_namespace/.test(text))).toEqual([]);
        await own.db.selectFrom('scanned_t').selectAll().execute();
      } finally {
        await own.close();
        await dropPostgresSchema(TEST_DATABASE_URL, schema);
      }
    },
  );
});
