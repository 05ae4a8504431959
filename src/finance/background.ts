import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundRuntime } from '../core/background/runtime.js';
import type { EventListener } from '../core/events/dispatcher.js';
import { backgroundOf } from '../core/modules/module.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import type { FinanceDatabase } from './db/schema.js';
import type { FinanceEvents } from './events.js';
import { DAILY_JOB_NAME } from './jobs/daily-schedule.js';
import { financeModules } from './modules.js';

export interface FinanceBackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra listeners (tests). */
  listeners?: readonly EventListener<FinanceDatabase, FinanceEvents>[];
  /** The daily job (alerts, overdue invoices, automatic accountant reports): on unless false. */
  dailyJob?: false;
  /** The clock of events and jobs (tests). */
  clock?: () => number;
}

/**
 * The finance service's background work on core's runtime: its modules' listeners and jobs
 * (finance/modules.ts), signed deliveries, and the mail queue with each account's own SMTP server;
 * history retention comes with the runtime. Started with the app in production (server.ts) and by
 * the tests that need it.
 */
export function createFinanceBackground(
  deps: FinanceDeps,
  services: FinanceServices,
  logger: FastifyBaseLogger,
  options: FinanceBackgroundOptions = {},
) {
  const { config } = deps;
  const modules = backgroundOf(financeModules, { deps, services, logger });
  const listeners = [...modules.listeners, ...(options.listeners ?? [])];
  const jobs = modules.jobs.filter((job) => options.dailyJob !== false || job.name !== DAILY_JOB_NAME);
  return createBackgroundRuntime<FinanceDatabase, FinanceEvents>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    settings: {
      allowedHosts: config.webhooks.allowedHosts,
      retryDelaysMs: config.webhooks.retryDelaysMs,
      leaseMs: config.webhooks.leaseMs,
      historyRetentionMs: config.historyRetentionMs,
    },
    listeners,
    jobs,
    chatwootHeaders: false,
    // The modules declare the secrets of the subscribers their deliveries go to.
    secretOf: modules.secretOf,
    transportFor: services.smtp.transportFor,
    clock: options.clock,
    pollIntervalMs: options.pollIntervalMs,
    webhookTimeoutMs: options.webhookTimeoutMs,
  });
}

export type FinanceBackground = ReturnType<typeof createFinanceBackground>;
