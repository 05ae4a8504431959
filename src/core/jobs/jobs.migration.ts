import { sql, type Generated } from 'kysely';
import type { DialectName } from '../db/database.js';
import { withId } from '../db/schema-helpers.js';
import type { UntypedDb } from '../db/untyped.js';

/** The durable job table every service database carries (see jobs.ts). */
export interface JobsTable {
  id: Generated<number>;
  /** The handler that runs it (`<module>.<job>`). */
  name: string;
  /** JSON text handed to the handler. */
  payload: string;
  /** When it is due (epoch ms). */
  run_at: number;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  /** While running: the lease; a worker that died leaves it to run out, and another takes the job. */
  locked_until: number | null;
  /** At most one job per (name, dedupe_key) exists; enqueuing another is a no-op. */
  dedupe_key: string | null;
  /** A recurring job's schedule as text (`every 600000`, `daily 00:05`); the row is rescheduled after each run. */
  recurrence: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface JobsDatabase {
  jobs: JobsTable;
}

/** Creates the jobs table; a migration of each service calls it. */
export async function createJobsTable(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('jobs'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('dedupe_key', 'text')
    .addColumn('recurrence', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // The claim reads waiting rows by due time and running rows by lease: both lead with status.
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema
    .createIndex('jobs_dedupe_uidx')
    .on('jobs')
    .columns(['name', 'dedupe_key'])
    .unique()
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();
  // Pruning finished jobs by age.
  await db.schema.createIndex('jobs_finished_idx').on('jobs').columns(['finished_at']).execute();
}
