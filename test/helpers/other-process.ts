import Database from 'better-sqlite3';
import pg from 'pg';
import { sqlitePath } from '../../src/core/db/database.js';
import type { TestDatabase } from './test-app.js';

/** Runs SQL on a test database through a connection of its own, as another process (the CLI) would. */
export interface OtherProcess {
  exec(statement: string): Promise<void>;
  close(): Promise<void>;
}

export async function otherProcess(database: TestDatabase<unknown>): Promise<OtherProcess> {
  if (database.url.startsWith('postgres')) {
    const c = new pg.Client({ connectionString: database.url, options: `-c search_path=${database.schema}` });
    await c.connect();
    return { exec: async (s) => void (await c.query(s)), close: () => c.end() };
  }
  const c = new Database(sqlitePath(database.url));
  c.pragma('busy_timeout = 5000');
  return { exec: async (s) => void c.exec(s), close: async () => void c.close() };
}

/** Opens another process's connection for `work`, and closes it after, whatever happens. */
export async function withOtherProcess(database: TestDatabase<unknown>, work: (other: OtherProcess) => Promise<void>) {
  const other = await otherProcess(database);
  try {
    await work(other);
  } finally {
    await other.close();
  }
}
