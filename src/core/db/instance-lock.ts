import fs from 'node:fs';

/**
 * One process per SQLite database: a second instance on the same file would start, then fail with
 * "database is locked" while its realtime clients get nothing. The lock is a file next to the
 * database holding the owner's pid, created exclusively; a lock whose process is gone (a crash) is
 * taken over. Several instances need PostgreSQL, which the message says.
 */
export class InstanceLockError extends Error {}

export interface InstanceLock {
  release(): void;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function lockSqliteFile(databaseFile: string, service: string): InstanceLock {
  const lockFile = `${databaseFile}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockFile);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new InstanceLockError(
          `The ${service} service's SQLite database ${databaseFile} is in use by another Ponte process (pid ${owner}). ` +
            'SQLite serves one instance; to run several instances, point the database URLs at PostgreSQL ' +
            '(CHAT_DATABASE_URL / FINANCE_DATABASE_URL=postgres://...). If no other instance runs, delete ' +
            `${lockFile}.`,
        );
      }
      fs.rmSync(lockFile, { force: true }); // its process is gone: take it over
    }
  }
  throw new InstanceLockError(`Could not lock ${databaseFile}`);
}
