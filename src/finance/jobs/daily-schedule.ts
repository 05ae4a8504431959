import type { JobDefinition } from '../../core/jobs/jobs.js';
import type { DailyAlertsJob } from './daily-alerts.js';

export const DAILY_JOB_NAME = 'finance.daily';

/**
 * The daily job on the scheduler: due at once the first time a database has it, then every day at
 * 00:05 UTC. The job queue runs it on one instance at a time (a dead instance's run is taken over
 * when its lease runs out); the job is idempotent, so a run taken over creates nothing twice. A
 * failed run is retried after the usual delays, then waits for the next day (overdue bills stay
 * overdue and due-soon windows span several days, so the next run catches up).
 */
export function dailyJob(job: DailyAlertsJob): JobDefinition {
  return {
    name: DAILY_JOB_NAME,
    schedule: { daily: '00:05' },
    leaseMs: 30 * 60_000,
    async handle(_run, context) {
      const summary = await job.run({}, context.now);
      context.logger.info({ summary }, 'finance daily job done');
    },
  };
}
