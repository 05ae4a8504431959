import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createJobsTable, type JobsDatabase } from './jobs.migration.js';
import { JobFailure, JobRunner, enqueueJob, nextOccurrence, rescheduleJob, type JobDefinition } from './jobs.js';

const logger = pino({ level: 'silent' });
const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

let database: TestDatabase<JobsDatabase>;
let second: TestDatabase<JobsDatabase>;
let now = T0;
const clock = () => now;

beforeAll(async () => {
  database = await openTestDatabase<JobsDatabase>('jobs');
  await createJobsTable(database.db, database.dialect);
  // A second connection to the same database, as a second instance has.
  second = await openTestDatabase<JobsDatabase>('jobs', database as TestDatabase<unknown>);
});
afterAll(async () => {
  await second.close();
  await database.close();
});
beforeEach(async () => {
  await database.db.deleteFrom('jobs').execute();
  now = T0;
});

function runner(definitions: JobDefinition[], db = database) {
  return new JobRunner({ db: db.db, dialect: db.dialect, logger, definitions, clock });
}

const rows = () => database.db.selectFrom('jobs').selectAll().orderBy('id').execute();

describe('enqueueJob and runDue', () => {
  it('runs a job enqueued in a committed transaction once, and never one whose transaction rolled back', async () => {
    const seen: unknown[] = [];
    const jobs = runner([{ name: 'test.echo', handle: async (job) => void seen.push(job.payload) }]);
    await database.db.transaction().execute((trx) => enqueueJob(trx, { name: 'test.echo', payload: { n: 1 } }, now));
    await database.db
      .transaction()
      .execute(async (trx) => {
        await enqueueJob(trx, { name: 'test.echo', payload: { n: 2 } }, now);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await jobs.runDue()).toBe(1);
    expect(await jobs.runDue()).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await rows()).toMatchObject([{ status: 'done', attempts: 1, finished_at: T0 }]);
  });

  it('waits for run_at by the injected clock', async () => {
    let ran = 0;
    const jobs = runner([{ name: 'test.later', handle: async () => void ran++ }]);
    await enqueueJob(database.db, { name: 'test.later', runAt: T0 + 10 * MIN }, now);
    expect(await jobs.runDue()).toBe(0);
    now = T0 + 10 * MIN - 1;
    expect(await jobs.runDue()).toBe(0);
    now = T0 + 10 * MIN;
    expect(await jobs.runDue()).toBe(1);
    expect(ran).toBe(1);
  });

  it('keeps one job per dedupe key', async () => {
    let ran = 0;
    const jobs = runner([{ name: 'test.once', handle: async () => void ran++ }]);
    for (let i = 0; i < 3; i++) await enqueueJob(database.db, { name: 'test.once', dedupeKey: 'campaign:7' }, now);
    await enqueueJob(database.db, { name: 'test.once', dedupeKey: 'campaign:8' }, now);
    expect(await jobs.runDue()).toBe(2);
    expect(ran).toBe(2);
    // Done jobs still hold their key: enqueuing it again is a no-op.
    await enqueueJob(database.db, { name: 'test.once', dedupeKey: 'campaign:7' }, now);
    expect(await jobs.runDue()).toBe(0);
  });

  it('rescheduleJob moves a keyed job to its new time and payload, and arms it again after it ran', async () => {
    const seen: unknown[] = [];
    const jobs = runner([{ name: 'test.start', handle: async (job) => void seen.push(job.payload) }]);
    const key = { name: 'test.start', dedupeKey: 'campaign:9' };
    await rescheduleJob(database.db, { ...key, payload: { v: 1 }, runAt: T0 + 10 * MIN }, now);
    await rescheduleJob(database.db, { ...key, payload: { v: 2 }, runAt: T0 + 20 * MIN }, now);
    expect(await rows()).toHaveLength(1);
    now = T0 + 10 * MIN;
    expect(await jobs.runDue()).toBe(0);
    now = T0 + 20 * MIN;
    expect(await jobs.runDue()).toBe(1);
    expect(seen).toEqual([{ v: 2 }]);
    // Done, then moved again: the same row runs once more at the new time.
    await rescheduleJob(database.db, { ...key, payload: { v: 3 }, runAt: T0 + 30 * MIN }, now);
    expect(await rows()).toMatchObject([{ status: 'pending', attempts: 0, run_at: T0 + 30 * MIN }]);
    now = T0 + 30 * MIN;
    expect(await jobs.runDue()).toBe(1);
    expect(seen).toEqual([{ v: 2 }, { v: 3 }]);
  });

  it('retries a failing job after growing delays, then succeeds once fixed; gives up after the retries', async () => {
    let broken = true;
    let calls = 0;
    const definition: JobDefinition = {
      name: 'test.flaky',
      retryDelaysMs: [MIN, 5 * MIN],
      handle: async () => {
        calls++;
        if (broken) throw new Error('receiver down');
      },
    };
    const jobs = runner([definition]);
    await enqueueJob(database.db, { name: 'test.flaky' }, now);
    await jobs.runDue();
    expect(await rows()).toMatchObject([
      { status: 'pending', attempts: 1, run_at: T0 + MIN, last_error: 'receiver down' },
    ]);
    now = T0 + MIN - 1;
    expect(await jobs.runDue()).toBe(0);
    now = T0 + MIN;
    broken = false;
    expect(await jobs.runDue()).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'done', attempts: 2 }]);
    expect(calls).toBe(2);

    await database.db.deleteFrom('jobs').execute();
    broken = true;
    await enqueueJob(database.db, { name: 'test.flaky' }, now);
    for (const step of [0, MIN, 5 * MIN]) {
      now += step;
      expect(await jobs.runDue()).toBe(1);
    }
    now += 60 * MIN;
    expect(await jobs.runDue()).toBe(0);
    expect(await rows()).toMatchObject([{ status: 'failed', attempts: 3, last_error: 'receiver down' }]);
  });

  it('a JobFailure ends a job without retry, or holds its retry until the time it names', async () => {
    const failures: JobFailure[] = [];
    const jobs = runner([
      {
        name: 'test.steered',
        retryDelaysMs: [MIN, MIN],
        handle: async () => {
          const failure = failures.shift();
          if (failure) throw failure;
        },
      },
    ]);
    failures.push(new JobFailure('refused for good', { retry: false }));
    await enqueueJob(database.db, { name: 'test.steered' }, now);
    expect(await jobs.runDue()).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'failed', attempts: 1, last_error: 'refused for good' }]);

    await database.db.deleteFrom('jobs').execute();
    // Later than the definition's delay: the named time wins; earlier: the delay still applies.
    failures.push(new JobFailure('busy', { notBefore: T0 + 30 * MIN }), new JobFailure('busy', { notBefore: T0 }));
    await enqueueJob(database.db, { name: 'test.steered' }, now);
    await jobs.runDue();
    expect(await rows()).toMatchObject([{ status: 'pending', attempts: 1, run_at: T0 + 30 * MIN, last_error: 'busy' }]);
    now = T0 + 30 * MIN;
    await jobs.runDue();
    expect(await rows()).toMatchObject([{ status: 'pending', attempts: 2, run_at: T0 + 31 * MIN }]);
    now = T0 + 31 * MIN;
    await jobs.runDue();
    expect(await rows()).toMatchObject([{ status: 'done', attempts: 3 }]);
  });

  it('ignores jobs of names it has no handler for (another service or version)', async () => {
    await enqueueJob(database.db, { name: 'someone.else' }, now);
    expect(await runner([{ name: 'test.mine', handle: async () => undefined }]).runDue()).toBe(0);
    expect(await rows()).toMatchObject([{ status: 'pending', attempts: 0 }]);
  });
});

describe('recurring jobs', () => {
  it('get one row, run at once the first time, then at each occurrence; a failure waits for the next', async () => {
    const runs: number[] = [];
    let fail = false;
    const definition: JobDefinition = {
      name: 'test.tick',
      schedule: { every: 10 * MIN },
      retryDelaysMs: [],
      handle: async () => {
        runs.push(now);
        if (fail) throw new Error('boom');
      },
    };
    const jobs = runner([definition]);
    await jobs.ensureRecurring();
    await jobs.ensureRecurring();
    expect(await rows()).toHaveLength(1);
    await jobs.runDue();
    now += 9 * MIN;
    await jobs.runDue();
    now += MIN;
    fail = true;
    await jobs.runDue();
    now += 10 * MIN;
    fail = false;
    await jobs.runDue();
    expect(runs).toEqual([T0, T0 + 10 * MIN, T0 + 20 * MIN]);
    expect(await rows()).toMatchObject([
      { status: 'pending', run_at: T0 + 30 * MIN, recurrence: 'every 600000', last_error: null },
    ]);
  });

  it('daily schedules fire once a day at their UTC time', () => {
    expect(nextOccurrence({ daily: '00:05' }, Date.UTC(2026, 0, 1, 0, 0))).toBe(Date.UTC(2026, 0, 1, 0, 5));
    expect(nextOccurrence({ daily: '00:05' }, Date.UTC(2026, 0, 1, 0, 5))).toBe(Date.UTC(2026, 0, 2, 0, 5));
    expect(nextOccurrence({ daily: '23:59' }, Date.UTC(2026, 0, 31, 23, 59, 30))).toBe(Date.UTC(2026, 1, 1, 23, 59));
    expect(() => nextOccurrence({ daily: '7am' }, 0)).toThrow(/HH:MM/);
  });
});

describe('several instances', () => {
  it('a job whose worker died is taken over once its lease runs out, and the dead worker cannot finish it', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const first = runner([{ name: 'test.slow', leaseMs: 10 * MIN, handle: () => stuck }]);
    let takenOver = 0;
    const other = runner([{ name: 'test.slow', leaseMs: 10 * MIN, handle: async () => void takenOver++ }], second);
    await enqueueJob(database.db, { name: 'test.slow' }, now);
    const dying = first.runDue();
    // Claimed by the first worker (lease until T0 + 10 min): the other leaves it alone.
    await expect.poll(async () => (await rows())[0].status).toBe('running');
    expect(await other.runDue()).toBe(0);
    now = T0 + 10 * MIN + 1;
    expect(await other.runDue()).toBe(1);
    expect(takenOver).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'done', attempts: 2 }]);
    // The first worker comes back: its outcome is not written over the other's.
    now = T0 + 20 * MIN;
    release();
    await dying;
    expect(await rows()).toMatchObject([{ status: 'done', attempts: 2, finished_at: T0 + 10 * MIN + 1 }]);
  });

  it('two runners on one database run each of 60 jobs exactly once', async () => {
    const seen = new Map<number, number>();
    const count = async (job: { payload: { n: number } }) => {
      seen.set(job.payload.n, (seen.get(job.payload.n) ?? 0) + 1);
    };
    for (let n = 0; n < 60; n++) await enqueueJob(database.db, { name: 'test.count', payload: { n } }, now);
    const a = runner([{ name: 'test.count', handle: count }]);
    const b = runner([{ name: 'test.count', handle: count }], second);
    // Either runner may lose a race for the SQLite write lock; it simply claims again.
    const drain = async (r: JobRunner) => {
      for (let i = 0; i < 200 && seen.size < 60; i++) await r.runDue().catch(() => undefined);
    };
    await Promise.all([drain(a), drain(b)]);
    expect(seen.size).toBe(60);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect((await rows()).every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
  });
});
