import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { UntypedDb } from './untyped.js';

/**
 * Group commit for SQLite.
 *
 * With `synchronous=FULL` every COMMIT waits for an fsync, so one commit per request caps writes at
 * the disk's fsync rate however cheap the work itself is. Here the requests of one turn of the
 * event loop share one commit: the first write opens a batch (`BEGIN IMMEDIATE`), each Kysely
 * transaction runs as a savepoint inside it, and the batch commits once, when the event loop has
 * nothing else ready (`setImmediate`). Durability and visibility stay as before:
 *
 * - a transaction's promise settles only after the COMMIT that contains it returned, so no caller
 *   acknowledges anything before it is on disk; if that COMMIT fails, every transaction of the
 *   batch fails (none of them was acknowledged, and none of their rows is left behind);
 * - a transaction that throws is rolled back to its savepoint: its own changes go, the batch and
 *   the other transactions in it keep theirs. Its error too settles only after the batch's COMMIT
 *   (and becomes the COMMIT's error if that fails): an error answer may tell what it read of the
 *   others' work (a 409 naming the version another move just wrote), which must be durable first;
 * - a query outside any transaction that runs while a batch is open (a plain read, or a single
 *   write) sees the batch's work, so it too answers only after the batch committed: nothing that
 *   left the process ever showed data that was not yet durable;
 * - transactions still run one after another on the one connection (a FIFO lock), so they see
 *   each other exactly as serial transactions would.
 *
 * Statements that cannot run inside a transaction (PRAGMA, VACUUM, ATTACH...) commit the open
 * batch first and run outside it.
 */

const MEMBER = 'ponte_group_member';
const OUTSIDE_TRANSACTION = /^\s*(pragma|vacuum|attach|detach|begin|commit|end|rollback|analyze|reindex)\b/i;

interface Batch {
  readonly committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch whose members all rolled back has nobody awaiting it; its failure is still reported
  // to those who do await it.
  committed.catch(() => {});
  return { committed, resolve, reject };
}

/** What a batch's COMMIT came to: told to observers (tests order answers against it). */
export interface CommitOutcome {
  /** Transactions and single statements of the batch (a rolled-back transaction is not counted). */
  members: number;
  /** Set when the COMMIT failed: every member failed with it. */
  error?: unknown;
}

export type CommitObserver = (outcome: CommitOutcome) => void;

/** What the driver counts, for tests and the benchmark. */
export interface GroupCommitStats {
  /** Batches committed. */
  commits: number;
  /** Transactions and single statements that were part of a committed batch. */
  members: number;
}

export class GroupCommitDriver implements Driver {
  readonly stats: GroupCommitStats = { commits: 0, members: 0 };
  readonly #native: SqliteDatabase.Database;
  readonly #connection: DatabaseConnection;
  #locked = false;
  readonly #waiting: Array<() => void> = [];
  #batch: Batch | undefined;
  #batchMembers = 0;
  #inTransaction = false;
  /** The batch the current holder of the connection must see committed before it returns. */
  #mustAwait: Promise<void> | undefined;
  #flushScheduled = false;
  #flushOnRelease = false;
  readonly #observers = new Set<CommitObserver>();

  constructor(native: SqliteDatabase.Database) {
    this.#native = native;
    this.#connection = {
      executeQuery: <R>(q: CompiledQuery) => this.#execute(q) as Promise<QueryResult<R>>,
      streamQuery: <R>(q: CompiledQuery) => this.#stream(q) as AsyncIterableIterator<QueryResult<R>>,
    };
  }

  /** Calls `observer` after every batch's COMMIT (or its failure), before anyone is answered; returns the unsubscribe. */
  observeCommits(observer: CommitObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Opened by its owner (database.ts), which may hand it to several Kysely instances. */
  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#locked = true;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const mustAwait = this.#mustAwait;
    this.#mustAwait = undefined;
    if (this.#flushOnRelease) {
      this.#flushOnRelease = false;
      this.#commitBatch();
    }
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
    if (mustAwait) await mustAwait;
  }

  async beginTransaction(): Promise<void> {
    this.#openBatch();
    this.#run(`savepoint ${MEMBER}`);
    this.#inTransaction = true;
  }

  async commitTransaction(): Promise<void> {
    this.#inTransaction = false;
    const batch = this.#requireBatch();
    this.#run(`release ${MEMBER}`);
    this.#join(batch);
  }

  async rollbackTransaction(): Promise<void> {
    this.#inTransaction = false;
    const batch = this.#batch;
    // Gone already: SQLite rolled the whole batch back (and every member of it was failed).
    if (!batch || !this.#native.inTransaction) return;
    this.#run(`rollback to ${MEMBER}`);
    this.#run(`release ${MEMBER}`);
    // Nothing of this transaction remains, but what it read of the others' work may be in its error:
    // the error is answered once the batch committed (or replaced by the COMMIT's own failure).
    this.#mustAwait = batch.committed;
    this.#scheduleFlush();
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'savepoint', name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'rollback to', name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'release', name, compile);
  }

  /** Closing is its owner's: several Kysely instances may share this connection. */
  async destroy(): Promise<void> {}

  /** Commits what is pending and closes the connection. */
  close(): void {
    if (this.#batch && !this.#locked) this.#commitBatch();
    this.#native.close();
  }

  async #savepointCommand(
    connection: DatabaseConnection,
    command: string,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad savepoint name ${name}`);
    await connection.executeQuery(CompiledQuery.raw(`${command} ${name}`));
    void compile;
  }

  #execute(query: CompiledQuery): Promise<QueryResult<unknown>> {
    const statement = this.#native.prepare(query.sql);
    const params = query.parameters as unknown[];
    if (!this.#inTransaction) {
      if (OUTSIDE_TRANSACTION.test(query.sql)) {
        this.#commitBatch();
      } else if (this.#batch || !statement.readonly) {
        // Part of a batch: a write opens one; a read while one is open sees its uncommitted work.
        const batch = this.#openBatch();
        try {
          return Promise.resolve(this.#runStatement(statement, params));
        } finally {
          this.#join(batch);
        }
      }
    }
    return Promise.resolve(this.#runStatement(statement, params));
  }

  async *#stream(query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>> {
    if (!this.#inTransaction && this.#batch) this.#commitBatch();
    const statement = this.#native.prepare(query.sql);
    if (!statement.reader) throw new Error('Only reading statements can be streamed');
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row] };
  }

  #runStatement(statement: SqliteDatabase.Statement, params: unknown[]): QueryResult<unknown> {
    try {
      if (statement.reader) return { rows: statement.all(params) };
      const { changes, lastInsertRowid } = statement.run(params);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      this.#checkBatchAlive(error);
      throw error;
    }
  }

  #run(sql: string): void {
    try {
      this.#native.prepare(sql).run();
    } catch (error) {
      this.#checkBatchAlive(error);
      throw error;
    }
  }

  #openBatch(): Batch {
    if (this.#batch) return this.#batch;
    this.#native.prepare('begin immediate').run();
    this.#batch = newBatch();
    this.#batchMembers = 0;
    return this.#batch;
  }

  #requireBatch(): Batch {
    if (!this.#batch) throw new Error('The transaction was rolled back with the batch it belonged to');
    return this.#batch;
  }

  /** The current holder answers after `batch` commits, and the batch commits soon. */
  #join(batch: Batch): void {
    this.#batchMembers += 1;
    this.#mustAwait = batch.committed;
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      if (!this.#batch) return;
      // A transaction that awaits something else than the database still holds the connection:
      // its savepoint is open, so the batch commits when it lets go.
      if (this.#locked) this.#flushOnRelease = true;
      else this.#commitBatch();
    });
  }

  /** Commits the open batch now (the caller holds the connection or nobody does). */
  #commitBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    const members = this.#batchMembers;
    try {
      this.#native.prepare('commit').run();
    } catch (error) {
      if (this.#native.inTransaction) this.#native.prepare('rollback').run();
      this.#tell({ members, error });
      batch.reject(error);
      return;
    }
    this.stats.commits += 1;
    this.stats.members += members;
    this.#tell({ members });
    batch.resolve();
  }

  #tell(outcome: CommitOutcome): void {
    for (const observer of this.#observers) observer(outcome);
  }

  /**
   * Some errors (disk full, I/O) make SQLite roll the whole transaction back by itself: then every
   * transaction of the batch is lost, and each must fail rather than report success.
   */
  #checkBatchAlive(error: unknown): void {
    const batch = this.#batch;
    if (!batch || this.#native.inTransaction) return;
    this.#batch = undefined;
    this.#inTransaction = false;
    this.#tell({ members: this.#batchMembers, error });
    batch.reject(error);
  }
}

/** Kysely's SQLite dialect (its compiler, adapter and introspector) with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly driver: GroupCommitDriver) {}

  createDriver(): Driver {
    return this.driver;
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: UntypedDb): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
