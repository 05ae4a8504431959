import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';

/**
 * One process per SQLite database: a second instance on the same file would start, then fail with
 * "database is locked" while its realtime clients get nothing. Several instances need PostgreSQL,
 * which the refusal says.
 *
 * The lock is one the kernel holds for the process and drops when the process dies, however it
 * dies: the lock file (`<database>.instance.lock`, empty) is opened as a SQLite database in
 * exclusive locking mode and an exclusive transaction is begun and never ended. SQLite takes a
 * POSIX write lock on the file for it; the kernel releases it when the process exits (a killed
 * process releases it before it becomes a zombie), so nothing is trusted that a dead process left
 * behind: no pid (a zombie, or an unrelated process that got the pid after a container restart,
 * would look alive), no file to remove (removing and re-creating a lock file races with the next
 * starter). Taking the lock is one atomic step; the file itself is never removed.
 * decisions/0035-instances.md.
 */
export class InstanceLockError extends Error {}

export interface InstanceLock {
  /** Gives the lock back (closing the lock's connection); the file stays for the next start. */
  release(): void;
}

export const lockFileOf = (databaseFile: string) => `${databaseFile}.instance.lock`;

/** What the lock steps report between their file operations (tests interleave two lockers on them). */
export type LockStep = 'opened' | 'contended';

/** Tries before a held lock is refused (each after a short random pause: see `lockSqliteFile`). */
export const LOCK_ATTEMPTS = 6;

/**
 * Takes the lock in steps, so that tests can interleave several lockers deterministically in one
 * process; `lockSqliteFile` runs them to the end. Throws `InstanceLockError` when another process
 * (or another lock of this one) holds it.
 */
export function* lockSteps(databaseFile: string, service: string): Generator<LockStep, InstanceLock, void> {
  const lockFile = lockFileOf(databaseFile);
  for (let attempt = 1; ; attempt++) {
    // timeout 0: SQLite's own waiting could hold two starters in a deadlock until both give up.
    const native = new SqliteDatabase(lockFile, { timeout: 0 });
    yield 'opened';
    try {
      native.pragma('locking_mode = exclusive'); // the lock is never given back before close
      native.pragma('journal_mode = memory'); // nothing is written: no journal file beside it
      native.exec('begin exclusive');
    } catch (err) {
      native.close();
      if (isBusy(err) && attempt < LOCK_ATTEMPTS) {
        yield 'contended';
        continue;
      }
      throw refusal(err, databaseFile, lockFile, service);
    }
    removeLegacyLock(databaseFile);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        native.close();
      },
    };
  }
}

/**
 * Takes the instance lock of a SQLite database file, or throws `InstanceLockError`. SQLite takes an
 * exclusive lock through a shared one: two processes that read the file at the same moment can
 * both fail to go further, though neither holds it. Each then steps back for a random few
 * milliseconds and tries again, so one of them gets it; a lock that is really held is refused
 * after LOCK_ATTEMPTS tries (about 80 ms).
 */
export function lockSqliteFile(databaseFile: string, service: string): InstanceLock {
  const steps = lockSteps(databaseFile, service);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (step.value === 'contended') Atomics.wait(pause, 0, 0, 5 + Math.random() * 25);
  }
}

const isBusy = (err: unknown) => ['SQLITE_BUSY', 'SQLITE_LOCKED'].includes((err as { code?: string }).code ?? '');

function refusal(err: unknown, databaseFile: string, lockFile: string, service: string): unknown {
  const code = (err as { code?: string }).code;
  if (isBusy(err)) {
    const holder = holderPid(lockFile);
    return new InstanceLockError(
      `The ${service} service's SQLite database ${databaseFile} is in use by another Ponte process` +
        `${holder ? ` (pid ${holder})` : ''}: it holds ${lockFile}. SQLite serves one instance; to run ` +
        'several instances, point the database URLs at PostgreSQL (CHAT_DATABASE_URL / FINANCE_DATABASE_URL=postgres://...). ' +
        'The lock ends with its process, whichever way that stops.',
    );
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new InstanceLockError(
      `${lockFile} is not the instance lock of ${databaseFile} (something else wrote into it): ` +
        'stop every Ponte process on this database, delete that file, and start again.',
    );
  }
  return err;
}

/**
 * The pid holding a POSIX lock on the file, from /proc/locks (Linux), for the refusal's message
 * only: it decides nothing. Null when it cannot be told (another system, another pid namespace).
 */
function holderPid(lockFile: string): number | null {
  try {
    const inode = fs.statSync(lockFile).ino;
    for (const line of fs.readFileSync('/proc/locks', 'utf8').split('\n')) {
      const fields = line.trim().split(/\s+/);
      // "1: POSIX  ADVISORY  WRITE 18849 fe:00:2146530 1073741824 1073742335"
      if (fields[1] === 'POSIX' && fields[3] === 'WRITE' && fields[5]?.endsWith(`:${inode}`)) return Number(fields[4]);
    }
  } catch {
    /* not Linux, or the file went away */
  }
  return null;
}

/**
 * Before this lock, `<database>.lock` held the owner's pid. A start of this version holds the
 * real lock and removes such a file (a pid and nothing else), which no process of this version
 * reads.
 */
function removeLegacyLock(databaseFile: string): void {
  const legacy = `${databaseFile}.lock`;
  try {
    if (/^\d+\s*$/.test(fs.readFileSync(legacy, 'utf8'))) fs.rmSync(legacy, { force: true });
  } catch {
    /* none */
  }
}
