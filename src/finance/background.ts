import type { FastifyBaseLogger } from 'fastify';
import { OutboxDispatcher, type EventListener } from '../core/events/dispatcher.js';
import type { Delivery } from '../core/webhooks/deliveries.js';
import { DestinationGuard } from '../core/webhooks/destination-guard.js';
import { HistoryPruner } from '../core/retention/history-pruner.js';
import { DeliveryWorker } from '../core/webhooks/worker.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import type { FinanceDatabase } from './db/schema.js';
import { createDailySchedule, type DailyScheduleOptions } from './jobs/daily-schedule.js';
import { notificationsListener } from './listeners/notifications.listener.js';
import { financeWebhookListener } from './listeners/webhook.listener.js';

export interface FinanceBackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra outbox listeners (tests). */
  listeners?: readonly EventListener<FinanceDatabase>[];
  /** How often expired rate-limit buckets, reset tokens, refresh tokens and old invitations are deleted (ms). */
  housekeepingIntervalMs?: number;
  /** The daily job (alerts, overdue invoices, automatic accountant reports): on unless false. */
  dailyJob?: DailyScheduleOptions | false;
}

/**
 * The finance service's background work: the outbox dispatcher (its listeners: the webhook fan-out
 * and payment notifications), the core webhook delivery worker on the finance database, the daily
 * job, housekeeping of expired identity rows, and the pruning of old history (HISTORY_RETENTION_DAYS). Started with the app in production (server.ts) and by the
 * tests that need it.
 */
export function createFinanceBackground(
  deps: FinanceDeps,
  services: FinanceServices,
  logger: FastifyBaseLogger,
  options: FinanceBackgroundOptions = {},
) {
  let worker: DeliveryWorker<FinanceDatabase> | null = null;
  const dispatcher = new OutboxDispatcher<FinanceDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    listeners: [financeWebhookListener(), notificationsListener(services.notifications), ...(options.listeners ?? [])],
    onDispatched: () => worker?.poke(),
  });
  // Signing secret of a delivery's subscriber, by subscriber type (unknown types are cancelled).
  const secretResolvers: Record<string, (subscriberId: number) => Promise<string | null>> = {};
  secretResolvers.webhook = (id) => services.webhooks.secretOf(id);
  worker = new DeliveryWorker<FinanceDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    guard: new DestinationGuard(deps.config.webhooks.allowedHosts),
    retryDelaysMs: deps.config.webhooks.retryDelaysMs,
    leaseMs: deps.config.webhooks.leaseMs,
    timeoutMs: options.webhookTimeoutMs,
    pollIntervalMs: options.pollIntervalMs ?? 200,
    async secretOf(delivery: Delivery) {
      const resolve = secretResolvers[delivery.subscriber_type];
      return resolve ? resolve(delivery.subscriber_id) : null;
    },
  });
  const deliveries = worker;

  let housekeepingTimer: NodeJS.Timeout | null = null;
  let housekeeping: Promise<void> | null = null;
  const purge = async () => {
    const now = Date.now();
    try {
      await services.rateLimits.purgeExpired(now);
      await services.passwords.purgeExpired(now);
      await services.invitations.purgeExpired(now);
      await services.sessions.purgeExpired(now);
    } catch (err) {
      logger.warn({ err }, 'finance housekeeping failed');
    }
  };

  const daily = options.dailyJob === false ? null : createDailySchedule(services.dailyAlerts, logger, options.dailyJob);
  const history = new HistoryPruner({ db: deps.db, logger, retentionMs: deps.config.historyRetentionMs });

  return {
    dispatcher,
    history,
    /** The daily job's schedule (null when disabled). */
    daily,
    worker: deliveries,
    secretResolvers,
    /** Runs the housekeeping once (tests and tools). */
    purge,
    async start() {
      dispatcher.start();
      deliveries.start();
      housekeepingTimer = setInterval(() => {
        if (!housekeeping) housekeeping = purge().finally(() => (housekeeping = null));
      }, options.housekeepingIntervalMs ?? 10 * 60_000);
      housekeepingTimer.unref?.();
      daily?.start();
      history.start();
    },
    async stop() {
      if (housekeepingTimer) clearInterval(housekeepingTimer);
      housekeepingTimer = null;
      await housekeeping;
      await history.stop();
      await daily?.stop();
      await dispatcher.stop();
      await deliveries.stop();
    },
  };
}

export type FinanceBackground = ReturnType<typeof createFinanceBackground>;
