import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

/**
 * Group commit (group-commit.ts): what a caller is told about a transaction is what is on disk.
 * Each check looks at the file through a second, independent connection, which sees only
 * committed data.
 */
interface Tables {
  notes: { id: Generated<number>; body: string };
  parents: { id: number };
  children: { id: number; parent_id: number };
}

let dir: string;
let file: string;
let database: Database<Tables>;
let db: Kysely<Tables>;
let observer: SqliteDatabase.Database;

/** Bodies committed to the file, as another process would see them. */
const committed = () =>
  (observer.prepare('select body from notes order by id').all() as { body: string }[]).map((r) => r.body);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-group-commit-'));
  file = path.join(dir, 'test.sqlite');
  database = await openDatabase<Tables>(file);
  db = database.db;
  await sql`create table notes (id integer primary key, body text not null unique)`.execute(db);
  await sql`create table parents (id integer primary key)`.execute(db);
  await sql`create table children (id integer primary key, parent_id integer not null
    references parents(id) deferrable initially deferred)`.execute(db);
  observer = new SqliteDatabase(file, { readonly: true });
});

afterEach(async () => {
  observer.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insertNote = (body: string) =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ body }).execute();
    return body;
  });

describe('group commit (SQLite)', () => {
  it('concurrent transactions share commits, and each is on disk when it resolves', async () => {
    const before = { ...database.groupCommit! };
    const seenAtResolve: boolean[] = [];
    const bodies = Array.from({ length: 50 }, (_, i) => `note ${i}`);
    await Promise.all(
      bodies.map((body) => insertNote(body).then(() => seenAtResolve.push(committed().includes(body)))),
    );
    expect(seenAtResolve).toEqual(bodies.map(() => true));
    expect(committed()).toHaveLength(50);
    const commits = database.groupCommit!.commits - before.commits;
    expect(database.groupCommit!.members - before.members).toBe(50);
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(5);
  });

  it('one failing transaction in a batch loses its own work only; the others commit', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('notes')
            .values({ body: `note ${i}` })
            .execute();
          if (i === 4) throw new Error('request 4 failed');
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
    expect((results[4] as PromiseRejectedResult).reason.message).toBe('request 4 failed');
    expect(committed().sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `note ${i}`)
        .filter((b) => b !== 'note 4')
        .sort(),
    );
  });

  it('a statement error (a unique violation) fails that transaction alone', async () => {
    await insertNote('taken');
    const results = await Promise.allSettled([insertNote('a'), insertNote('taken'), insertNote('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed().sort()).toEqual(['a', 'b', 'taken']);
  });

  it('a failed commit fails every transaction of the batch and leaves none of their rows', async () => {
    await db.insertInto('parents').values({ id: 1 }).execute();
    const results = await Promise.allSettled([
      insertNote('innocent'),
      // A deferred foreign key is checked at COMMIT: the batch's commit fails.
      db.transaction().execute(async (trx) => {
        await trx.insertInto('children').values({ id: 1, parent_id: 99 }).execute();
      }),
      insertNote('bystander'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(committed()).toEqual([]);
    expect(observer.prepare('select count(*) as n from children').get()).toEqual({ n: 0 });
    // The connection works on.
    await insertNote('after');
    expect(committed()).toEqual(['after']);
  });

  it('a read that ran while a batch was open answers only once the batch is committed', async () => {
    const write = insertNote('pending');
    const read = db
      .selectFrom('notes')
      .select('body')
      .execute()
      .then((rows) => ({ rows: rows.map((r) => r.body), onDisk: committed() }));
    const [, seen] = await Promise.all([write, read]);
    expect(seen.rows).toEqual(['pending']);
    expect(seen.onDisk).toEqual(['pending']);
  });

  it('a single write outside a transaction is batched and on disk when it resolves', async () => {
    await Promise.all(
      ['x', 'y', 'z'].map((body) =>
        db
          .insertInto('notes')
          .values({ body })
          .execute()
          .then(() => expect(committed()).toContain(body)),
      ),
    );
  });

  it('a transaction waiting on something else keeps its savepoint; the batch commits when it ends', async () => {
    const slow = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ body: 'slow' }).execute();
      await new Promise((resolve) => setTimeout(resolve, 30));
      // Nothing of it was committed while it waited.
      expect(committed()).not.toContain('slow');
      await trx.insertInto('notes').values({ body: 'slow, second row' }).execute();
    });
    const fast = insertNote('fast');
    await Promise.all([slow, fast]);
    expect(committed().sort()).toEqual(['fast', 'slow', 'slow, second row']);
  });

  it("a transaction's error is answered only after the batch it read from committed", async () => {
    // A versioned move: the winner writes version 2; the loser, in the same batch, reads version 2
    // and refuses with it. The refusal names a version that must be on disk when it leaves.
    await db.insertInto('notes').values({ id: 1, body: 'version 1' }).execute();
    const order: string[] = [];
    const stop = database.observeCommits!(({ error }) => order.push(error ? 'commit failed' : 'commit'));
    const move = (expected: string) =>
      db.transaction().execute(async (trx) => {
        const { body } = await trx.selectFrom('notes').select('body').where('id', '=', 1).executeTakeFirstOrThrow();
        if (body !== expected) throw new Error(`stale: the note is now ${body}`);
        await trx.updateTable('notes').set({ body: 'version 2' }).where('id', '=', 1).execute();
      });
    const results = await Promise.allSettled([
      move('version 1').then(() => order.push('winner answered')),
      move('version 1').catch((err: Error) => {
        order.push('loser answered');
        expect(committed()).toEqual(['version 2']);
        throw err;
      }),
    ]);
    stop();
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('stale: the note is now version 2');
    expect(order).toEqual(['commit', 'winner answered', 'loser answered']);
  });

  it('when the batch fails to commit, a transaction that failed in it gets the commit error, not its own', async () => {
    await db.insertInto('notes').values({ id: 1, body: 'version 1' }).execute();
    await db.insertInto('parents').values({ id: 1 }).execute();
    const results = await Promise.allSettled([
      db
        .transaction()
        .execute((trx) => trx.updateTable('notes').set({ body: 'version 2' }).where('id', '=', 1).execute()),
      db.transaction().execute(async (trx) => {
        const { body } = await trx.selectFrom('notes').select('body').where('id', '=', 1).executeTakeFirstOrThrow();
        throw new Error(`stale: the note is now ${body}`);
      }),
      // A deferred foreign key fails the batch's COMMIT.
      db.transaction().execute((trx) => trx.insertInto('children').values({ id: 1, parent_id: 99 }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // "version 2" never committed: nobody is told about it.
    expect((results[1] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(committed()).toEqual(['version 1']);
  });

  it('a PRAGMA commits the open batch first and runs outside it', async () => {
    const write = insertNote('before pragma');
    const pragma = sql`pragma foreign_keys`.execute(db);
    await Promise.all([write, pragma]);
    expect(committed()).toEqual(['before pragma']);
    expect((await pragma).rows).toEqual([{ foreign_keys: 1 }]);
  });

  it('two handles on one file in one process share the connection and never wait on each other', async () => {
    const second = await openDatabase<Tables>(file);
    try {
      await Promise.all([
        insertNote('first handle'),
        second.db.transaction().execute((trx) => trx.insertInto('notes').values({ body: 'second handle' }).execute()),
      ]);
      expect(committed().sort()).toEqual(['first handle', 'second handle']);
    } finally {
      await second.close();
    }
    // The first handle still works after the second closed.
    await insertNote('still open');
    expect(committed()).toContain('still open');
  });
});
