import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_LIMIT, openDatabase, type Database } from './database.js';

interface TestDb {
  items: { id: number; name: string; note: string | null; amount: number };
  tags: { id: number; item_id: number; name: string };
}

let database: Database<TestDb>;
beforeAll(async () => {
  database = await openDatabase<TestDb>(':memory:');
  const db = database.db;
  await db.schema
    .createTable('items')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('note', 'text')
    .addColumn('amount', 'integer')
    .execute();
  await db.schema
    .createTable('tags')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('item_id', 'integer')
    .addColumn('name', 'text')
    .execute();
  await db
    .insertInto('items')
    .values([
      { id: 1, name: 'one', note: null, amount: 1795328871847 },
      { id: 2, name: 'two "quoted"', note: 'x', amount: -5 },
    ])
    .execute();
  await db.insertInto('tags').values({ id: 7, item_id: 1, name: 'tag' }).execute();
});
afterAll(async () => {
  await database.close();
});

describe('SQLite rows (raw arrays turned into objects per statement)', () => {
  it('returns the same objects as before: every column, nulls, large integers, in order', async () => {
    const rows = await database.db.selectFrom('items').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 1, name: 'one', note: null, amount: 1795328871847 },
      { id: 2, name: 'two "quoted"', note: 'x', amount: -5 },
    ]);
    expect(Object.keys(rows[0])).toEqual(['id', 'name', 'note', 'amount']);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    // The same statement again (from the cache) with other parameters.
    expect(await database.db.selectFrom('items').selectAll().where('id', '=', 2).execute()).toHaveLength(1);
  });

  it('keeps the later of two columns with the same name, and odd aliases as plain keys', async () => {
    const row = await database.db
      .selectFrom('items')
      .innerJoin('tags', 'tags.item_id', 'items.id')
      .select(['items.name', 'tags.name', sql<string>`'a"b\\c'`.as('odd "alias"')])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'tag', 'odd "alias"': 'a"b\\c' });
  });

  it('makes a __proto__ column a plain property, never the prototype', async () => {
    // A blob comes back as a Buffer, an object: in an object literal it would become the prototype.
    const row = (
      await sql<Record<string, unknown>>`select x'0102' as "__proto__", id from items where id = 1`.execute(database.db)
    ).rows[0];
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual(Buffer.from([1, 2]));
    expect(row.id).toBe(1);
  });

  it('streams rows and runs writes with returning', async () => {
    const streamed: unknown[] = [];
    for await (const row of database.db.selectFrom('items').select(['id', 'name']).orderBy('id').stream())
      streamed.push(row);
    expect(streamed).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two "quoted"' },
    ]);
    const inserted = await database.db
      .insertInto('tags')
      .values({ id: 8, item_id: 2, name: 'new' })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    expect(inserted).toEqual({ id: 8, name: 'new' });
    const updated = await database.db
      .updateTable('tags')
      .set({ name: 'renamed' })
      .where('id', '=', 8)
      .executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);
  });
});

describe('SQLite connection settings', () => {
  it('bounds the statistics analysis at open, so a start after a large import does not read every row', async () => {
    const { rows } = await sql<{ analysis_limit: number }>`pragma analysis_limit`.execute(database.db);
    expect(rows[0].analysis_limit).toBe(ANALYSIS_LIMIT);
    expect(ANALYSIS_LIMIT).toBeGreaterThan(0);
  });
});
