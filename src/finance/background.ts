import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundRuntime } from '../core/background/runtime.js';
import type { EventListener } from '../core/events/dispatcher.js';
import type { JobDefinition } from '../core/jobs/jobs.js';
import { toIso } from '../core/time.js';
import { webhookFanOut } from '../core/webhooks/subscriptions.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import type { FinanceDatabase } from './db/schema.js';
import { FINANCE_WEBHOOK_EVENTS, type FinanceEvents } from './events.js';
import { dailyJob } from './jobs/daily-schedule.js';
import { notificationsListener } from './listeners/notifications.listener.js';

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
 * The finance service's background work on core's runtime: its listeners (webhook fan-out in the
 * finance envelope, payment notifications), signed deliveries, the mail queue with each account's
 * own SMTP server, and its jobs: the daily job (00:05 UTC) and housekeeping of expired identity
 * rows every 10 minutes; history retention comes with the runtime. Started with the app in
 * production (server.ts) and by the tests that need it.
 */
export function createFinanceBackground(deps: FinanceDeps, services: FinanceServices, logger: FastifyBaseLogger, options: FinanceBackgroundOptions = {}) {
  const { config } = deps;
  const listeners: EventListener<FinanceDatabase, FinanceEvents>[] = [
    webhookFanOut<FinanceDatabase, FinanceEvents>({
      catalogue: FINANCE_WEBHOOK_EVENTS,
      // The envelope {id, event, created_at, account_id, data}: `id` is the outbox event id.
      body: (event) => ({ id: String(event.id), ...event.snapshot, created_at: event.snapshot.created_at ?? toIso(event.createdAt) }),
    }),
    notificationsListener(services.notifications, {
      bill: (q, accountId, id) => services.bills.paidRecord(q, accountId, id),
      invoice: (q, accountId, id) => services.invoices.paidRecord(q, accountId, id),
    }),
    ...(options.listeners ?? []),
  ];
  const jobs: JobDefinition[] = [
    {
      name: 'finance.housekeeping',
      schedule: { every: 10 * 60_000 },
      async handle(_job, context) {
        const now = context.now;
        await services.rateLimits.purgeExpired(now);
        await services.passwords.purgeExpired(now);
        await services.invitations.purgeExpired(now);
        await services.sessions.purgeExpired(now);
      },
    },
    ...(options.dailyJob === false ? [] : [dailyJob(services.dailyAlerts)]),
  ];
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
    async secretOf(delivery) {
      return delivery.subscriber_type === 'webhook' ? services.webhooks.secretOf(delivery.subscriber_id) : null;
    },
    transportFor: services.smtp.transportFor,
    clock: options.clock,
    pollIntervalMs: options.pollIntervalMs,
    webhookTimeoutMs: options.webhookTimeoutMs,
  });
}

export type FinanceBackground = ReturnType<typeof createFinanceBackground>;
