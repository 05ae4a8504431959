import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, testDialect } from '../../../test/helpers/test-app.js';
import { dropPostgresSchema, openDatabase, type Database } from './database.js';
import { StatementNames } from './pg-statements.js';

interface TestDb {
  items: { id: number; name: string; note?: string | null };
}

describe('statement names', () => {
  it('gives each text one name, up to the limit, a new one on rename, and none once stopped', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('select 1 where $1');
    expect(names.nameOf('select 1 where $1')).toBe(a);
    const b = names.nameOf('select 2 where $1');
    expect(b).not.toBe(a);
    expect(names.nameOf('select 3 where $1')).toBeUndefined();
    const renamed = names.rename('select 1 where $1');
    expect(renamed).not.toBe(a);
    expect(names.nameOf('select 1 where $1')).toBe(renamed);
    names.stop();
    expect(names.nameOf('select 1 where $1')).toBeUndefined();
    expect(names.size).toBe(0);
  });
});

describe.skipIf(testDialect !== 'postgres')('named statements on PostgreSQL', () => {
  const schema = `t_stmt_${randomBytes(6).toString('hex')}`;
  let database: Database<TestDb>;
  let db: Kysely<TestDb>;
  // One connection, so that pg_prepared_statements shows what the statements before it prepared.
  beforeAll(async () => {
    database = await openDatabase<TestDb>(TEST_DATABASE_URL, { schema, poolSize: 1 });
    db = database.db;
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
  });
  afterAll(async () => {
    await database.close();
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });

  /** The statements prepared on the connection of `on` (a pool of one). */
  const prepared = async (on: Kysely<TestDb> = db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(on)).rows.map(
      (r) => r.statement,
    );
  const findOneQuery = () => db.selectFrom('items').selectAll().where('id', '=', 1);
  const findOne = () => findOneQuery().executeTakeFirstOrThrow();

  it('prepares a statement with parameters run outside a transaction once, and runs it again by name', async () => {
    expect(await findOne()).toEqual({ id: 1, name: 'one' });
    expect(await findOne()).toEqual({ id: 1, name: 'one' });
    expect((await prepared()).filter((s) => s === findOneQuery().compile().sql)).toHaveLength(1);
  });

  it('leaves statements inside a transaction unnamed', async () => {
    const marker = `in transaction ${randomBytes(4).toString('hex')}`;
    await db.transaction().execute(async (trx) => {
      await sql`select ${marker} as marker`.execute(trx);
    });
    expect((await prepared()).some((s) => s.includes('as marker'))).toBe(false);
    // The same text outside the transaction is prepared: the transaction's end was seen.
    await sql`select ${marker} as marker`.execute(db);
    expect((await prepared()).some((s) => s.includes('as marker'))).toBe(true);
  });

  it('runs a prepared select * again after a column is added (the plan no longer fits: a new name)', async () => {
    expect(await findOne()).toEqual({ id: 1, name: 'one' });
    // What another instance's migration does during a rolling upgrade.
    await sql`alter table items add column note text`.execute(db);
    await sql`update items set note = 'added' where id = 1`.execute(db);
    expect(await findOne()).toEqual({ id: 1, name: 'one', note: 'added' });
    expect(await findOne()).toEqual({ id: 1, name: 'one', note: 'added' });
  });

  it('still fails a statement that is wrong, with its own error', async () => {
    await expect(sql`select * from items where id = ${'not a number'}`.execute(db)).rejects.toMatchObject({
      code: '22P02',
    });
  });

  it('runs a statement again unnamed, and stops naming, when the server lost what the connection prepared', async () => {
    // What PgBouncer in transaction mode does to a client's statements: here they are dropped.
    const pooled = await openDatabase<TestDb>(TEST_DATABASE_URL, { schema, poolSize: 1 });
    try {
      const find = () => pooled.db.selectFrom('items').select('name').where('id', '=', 1).executeTakeFirstOrThrow();
      expect(await find()).toEqual({ name: 'one' });
      await sql`deallocate all`.execute(pooled.db);
      expect(await find()).toEqual({ name: 'one' });
      await pooled.db.selectFrom('items').select('id').where('name', '=', 'one').execute();
      expect(await prepared(pooled.db)).toEqual([]);
    } finally {
      await pooled.close();
    }
  });

  it('names nothing when prepared statements are off (PG_PREPARED_STATEMENTS=off)', async () => {
    const unnamed = await openDatabase<TestDb>(TEST_DATABASE_URL, { schema, poolSize: 1, preparedStatements: false });
    try {
      await unnamed.db.selectFrom('items').select('name').where('id', '=', 1).execute();
      expect(await prepared(unnamed.db)).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });

  it('leaves a failed statement inside a transaction to fail the transaction, unretried', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 2, name: 'two' }).execute();
        await sql`select * from items where id = ${'x'}`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '22P02' });
    expect(await db.selectFrom('items').select('id').where('id', '=', 2).executeTakeFirst()).toBeUndefined();
  });
});
