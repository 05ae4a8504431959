import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { PollLoop } from '../background/poll-loop.js';
import type { DialectName } from '../db/database.js';
import type { JobsDatabase, JobsTable } from './jobs.migration.js';
import { claimLeased, nextAttemptAt } from './lease.js';
import type { UntypedDb } from '../db/untyped.js';

/**
 * The one scheduler for timed work: a durable, leased queue in the `jobs` table that several
 * instances share on SQLite and PostgreSQL. Modules declare `JobDefinition`s (a handler per job
 * name, optionally a recurring schedule); anything may enqueue a job inside its own transaction
 * (`enqueueJob`), so the job exists if and only if that transaction commits.
 *
 * Semantics: at least once. A claimed job carries a lease; a worker that dies leaves it to run
 * out and another instance runs the job again, so handlers are idempotent (unique keys,
 * conditional updates). A failure is retried after growing delays; once they are used up a
 * one-off job is `failed` (kept with its error), a recurring one waits for its next occurrence.
 * Time comes from an injected clock: tests move the clock and call `runDue()`, never wait.
 */

/** A recurring job's schedule: every N ms, or once a day at HH:MM UTC. */
export type Schedule = { every: number } | { daily: string };

export interface RunningJob<P = unknown> {
  id: number;
  name: string;
  payload: P;
  /** 1 on the first run. */
  attempts: number;
  runAt: number;
}

export interface JobContext {
  /** The runner's clock at claim time. */
  now: number;
  logger: FastifyBaseLogger;
  /** Keeps the lease of a long job (call it now and then; another instance takes over otherwise). */
  extendLease(ms: number): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lists hold definitions of every payload type
export interface JobDefinition<P = any> {
  name: string;
  handle(job: RunningJob<P>, context: JobContext): Promise<void>;
  schedule?: Schedule;
  /** Waits before each retry; its length is the number of retries (default 10 s, 1 min, 5 min, 30 min). */
  retryDelaysMs?: readonly number[];
  /** How long a claimed run belongs to its worker (default 5 minutes). */
  leaseMs?: number;
}

export interface NewJob {
  name: string;
  payload?: unknown;
  /** Default: now. */
  runAt?: number;
  /** At most one job per (name, dedupe key): enqueuing another is a no-op. */
  dedupeKey?: string;
}

/**
 * What a handler throws to steer what follows its failure: `retry: false` ends a one-off job as
 * `failed` at once (no retry can help: a refusal, an input that will never work); `notBefore`
 * holds the next attempt until at least that time (a server's Retry-After). Any other error is
 * retried on the definition's delays.
 */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly options: { retry?: boolean; notBefore?: number } = {},
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export const DEFAULT_JOB_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000] as const;
const DEFAULT_LEASE_MS = 5 * 60_000;
const RECURRING_KEY = '@recurring';
const DAY_MS = 24 * 60 * 60_000;

const enqueueListeners = new Set<() => void>();

/** Queues a job in the caller's transaction (it exists only if that transaction commits). */
export async function enqueueJob<DB extends JobsDatabase>(
  trx: Transaction<DB> | Kysely<DB>,
  job: NewJob,
  now = Date.now(),
): Promise<void> {
  const db = trx as unknown as Kysely<JobsDatabase>;
  await db
    .insertInto('jobs')
    .values(newRow(job.name, job.payload ?? {}, job.runAt ?? now, job.dedupeKey ?? null, null, now))
    .onConflict((oc) => oc.columns(['name', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
    .execute();
  for (const listener of enqueueListeners) listener();
}

/**
 * Queues the job of a (name, dedupe key), or moves the one already there to this time and payload,
 * armed again if it has run, in the caller's transaction: for work due at a time that may change
 * (a campaign's start, a deadline). A run in progress is left alone; it re-reads its subject.
 */
export async function rescheduleJob<DB extends JobsDatabase>(
  trx: Transaction<DB> | Kysely<DB>,
  job: NewJob & { dedupeKey: string },
  now = Date.now(),
): Promise<void> {
  await enqueueJob(trx, job, now);
  const db = trx as unknown as Kysely<JobsDatabase>;
  await db
    .updateTable('jobs')
    .set({
      payload: JSON.stringify(job.payload ?? {}),
      run_at: job.runAt ?? now,
      status: 'pending',
      attempts: 0,
      locked_until: null,
      last_error: null,
      finished_at: null,
      updated_at: now,
    })
    .where('name', '=', job.name)
    .where('dedupe_key', '=', job.dedupeKey)
    .where('status', '!=', 'running')
    .execute();
}

function newRow(
  name: string,
  payload: unknown,
  runAt: number,
  dedupeKey: string | null,
  recurrence: string | null,
  now: number,
) {
  return {
    name,
    payload: JSON.stringify(payload),
    run_at: runAt,
    status: 'pending' as const,
    attempts: 0,
    locked_until: null,
    dedupe_key: dedupeKey,
    recurrence,
    last_error: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
}

export function scheduleText(schedule: Schedule): string {
  return 'every' in schedule ? `every ${schedule.every}` : `daily ${schedule.daily}`;
}

/** The first time strictly after `after` that the schedule fires. */
export function nextOccurrence(schedule: Schedule, after: number): number {
  if ('every' in schedule) return after + Math.max(1, schedule.every);
  const match = /^(\d{2}):(\d{2})$/.exec(schedule.daily);
  if (!match) throw new Error(`invalid daily schedule ${schedule.daily} (HH:MM, UTC)`);
  const offset = (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  const dayStart = Math.floor(after / DAY_MS) * DAY_MS;
  const today = dayStart + offset;
  return today > after ? today : today + DAY_MS;
}

export interface JobRunnerOptions {
  db: UntypedDb;
  dialect: DialectName;
  logger: FastifyBaseLogger;
  definitions: readonly JobDefinition[];
  clock?: () => number;
  /** How often an idle runner looks for due jobs (ms). */
  pollIntervalMs?: number;
  /** Jobs run at once by this instance. */
  concurrency?: number;
}

type JobRow = JobsTable & { id: number };

export class JobRunner {
  private readonly byName = new Map<string, JobDefinition>();
  private readonly loop: PollLoop;
  private readonly clock: () => number;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: JobRunnerOptions) {
    for (const definition of options.definitions) {
      if (this.byName.has(definition.name)) throw new Error(`job ${definition.name} is defined twice`);
      this.byName.set(definition.name, definition);
    }
    this.clock = options.clock ?? Date.now;
    const idle = options.pollIntervalMs ?? 1000;
    this.loop = new PollLoop(
      async () => {
        await this.runDue();
        return idle;
      },
      (err) => options.logger.error({ err }, 'job runner failed'),
      Math.max(idle, 1000),
    );
  }

  private get db() {
    return this.options.db as Kysely<JobsDatabase>;
  }

  /** Makes sure every recurring job has its row, then runs due jobs in the background. */
  async start(): Promise<void> {
    await this.ensureRecurring();
    if (!this.unsubscribe) {
      const poke = () => this.loop.poke(2);
      enqueueListeners.add(poke);
      this.unsubscribe = () => enqueueListeners.delete(poke);
    }
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.loop.stop();
  }

  /**
   * One row per recurring definition (dedupe key `@recurring`), due at once the first time; an
   * existing row keeps its time and takes the current schedule text.
   */
  async ensureRecurring(): Promise<void> {
    const now = this.clock();
    for (const definition of this.byName.values()) {
      if (!definition.schedule) continue;
      const text = scheduleText(definition.schedule);
      await this.db
        .insertInto('jobs')
        .values(newRow(definition.name, {}, now, RECURRING_KEY, text, now))
        .onConflict((oc) =>
          oc.columns(['name', 'dedupe_key']).where('dedupe_key', 'is not', null).doUpdateSet({ recurrence: text }),
        )
        .execute();
    }
  }

  /** Claims and runs every job due by the clock, until none is left; returns how many ran. */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) return total;
      await Promise.all(claimed.map((row) => this.run(row)));
      total += claimed.length;
    }
  }

  private claim(): Promise<JobRow[]> {
    const names = [...this.byName.keys()];
    if (names.length === 0) return Promise.resolve([]);
    const now = this.clock();
    return claimLeased<JobRow>(
      this.db,
      this.options.dialect,
      { table: 'jobs', waiting: 'pending', running: 'running', dueColumn: 'run_at' },
      {
        now,
        // Each row gets the longest lease of the claimable jobs; handlers may extend theirs.
        leaseMs: Math.max(...[...this.byName.values()].map((d) => d.leaseMs ?? DEFAULT_LEASE_MS)),
        limit: this.options.concurrency ?? 4,
        set: { updated_at: now },
        where: (q) => q.where('name', 'in', names),
      },
    );
  }

  private async run(row: JobRow): Promise<void> {
    const definition = this.byName.get(row.name)!;
    const logger = this.options.logger;
    const context: JobContext = {
      now: this.clock(),
      logger,
      extendLease: async (ms) => {
        await this.db
          .updateTable('jobs')
          .set({ locked_until: this.clock() + ms })
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .execute();
      },
    };
    let error: string | null = null;
    let failure: JobFailure['options'] = {};
    try {
      await definition.handle(
        { id: row.id, name: row.name, payload: parsePayload(row.payload), attempts: row.attempts, runAt: row.run_at },
        context,
      );
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      if (err instanceof JobFailure) failure = err.options;
      logger.error({ err, jobId: row.id, job: row.name, attempts: row.attempts }, 'job failed');
    }
    await this.finish(row, definition, error, failure);
  }

  private async finish(
    row: JobRow,
    definition: JobDefinition,
    error: string | null,
    failure: JobFailure['options'],
  ): Promise<void> {
    const now = this.clock();
    let retryAt =
      error === null || failure.retry === false
        ? null
        : nextAttemptAt(now, row.attempts, definition.retryDelaysMs ?? DEFAULT_JOB_RETRY_DELAYS_MS);
    if (retryAt !== null && failure.notBefore !== undefined) retryAt = Math.max(retryAt, failure.notBefore);
    let values: Updateable<JobsTable>;
    if (retryAt !== null) {
      values = { status: 'pending', run_at: retryAt, locked_until: null, last_error: error, updated_at: now };
    } else if (definition.schedule) {
      // Recurring: the next occurrence, with a fresh count of attempts.
      values = {
        status: 'pending',
        run_at: nextOccurrence(definition.schedule, now),
        attempts: 0,
        locked_until: null,
        last_error: error,
        updated_at: now,
        finished_at: now,
      };
    } else {
      values = {
        status: error === null ? 'done' : 'failed',
        locked_until: null,
        last_error: error,
        updated_at: now,
        finished_at: now,
      };
    }
    // Only while this worker still holds it (a lease that ran out may have passed to another).
    await this.db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .where('attempts', '=', row.attempts)
      .execute();
  }
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
