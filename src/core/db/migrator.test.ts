import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { migrateToLatest, type PortableMigration } from './migrator.js';

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
});
