import type { FastifyBaseLogger } from 'fastify';
import { utcDay } from '../calendar.js';
import type { DailyAlertsJob, DailyJobSummary } from './daily-alerts.js';

export interface DailyScheduleOptions {
  /** How often the background looks whether today's run is still to do (ms; default 5 minutes). */
  checkIntervalMs?: number;
  /** The clock of the schedule (tests). */
  clock?: () => number;
}

/**
 * Runs the daily job once a UTC day: at start (when no instance has run it today) and then at the
 * first check after midnight UTC. Which instance runs it is settled by the `job_runs` claim, so
 * every instance may run this schedule. A run whose instance died is taken over by another once
 * its claim is stale (an hour). Failures are logged and end the day's run (the next day's run
 * catches up: overdue bills stay overdue, due-soon windows span several days).
 */
export function createDailySchedule(job: DailyAlertsJob, logger: FastifyBaseLogger, options: DailyScheduleOptions = {}) {
  const clock = options.clock ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<DailyJobSummary | null> | null = null;
  let lastDay: string | null = null;

  const tick = (): Promise<DailyJobSummary | null> => {
    if (running) return running;
    const now = clock();
    const day = utcDay(now);
    if (day === lastDay) return Promise.resolve(null);
    running = job
      .runIfDue(now)
      .then(async (summary) => {
        if (summary) logger.info({ summary }, 'finance daily job done');
        // Another instance holds today's claim: look again at the next check until its run has
        // finished, so a run whose instance died is taken over once its claim goes stale.
        if (summary || (await job.ranOn(day))?.finished_at != null) lastDay = day;
        return summary;
      })
      .catch((err) => {
        lastDay = day;
        logger.error({ err, day }, 'finance daily job failed');
        return null;
      })
      .finally(() => (running = null));
    return running;
  };

  return {
    /** Looks now (tests); resolves with the summary when this call ran the job. */
    tick,
    start() {
      void tick();
      timer = setInterval(() => void tick(), options.checkIntervalMs ?? 5 * 60_000);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
