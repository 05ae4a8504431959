import type { FastifyBaseLogger } from 'fastify';
import { OutboxDispatcher, type EventListener } from '../core/events/dispatcher.js';
import type { Delivery } from '../core/webhooks/deliveries.js';
import { DestinationGuard } from '../core/webhooks/destination-guard.js';
import { DeliveryWorker } from '../core/webhooks/worker.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import type { FinanceDatabase } from './db/schema.js';

export interface FinanceBackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra outbox listeners (tests). */
  listeners?: readonly EventListener<FinanceDatabase>[];
  /** How often expired rate-limit buckets, reset tokens and refresh tokens are deleted (ms). */
  housekeepingIntervalMs?: number;
}

/**
 * The finance service's background work: the outbox dispatcher (its listeners: the webhook fan-out
 * once finance webhooks exist), the core webhook delivery worker on the finance database, and
 * housekeeping of expired identity rows. Started with the app in production (server.ts) and by the
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
    listeners: [...(options.listeners ?? [])],
    onDispatched: () => worker?.poke(),
  });
  // Signing secret of a delivery's subscriber, by subscriber type (none yet: unknown types are cancelled).
  const secretResolvers: Record<string, (subscriberId: number) => Promise<string | null>> = {};
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
      await services.sessions.purgeExpired(now);
    } catch (err) {
      logger.warn({ err }, 'finance housekeeping failed');
    }
  };

  return {
    dispatcher,
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
    },
    async stop() {
      if (housekeepingTimer) clearInterval(housekeepingTimer);
      housekeepingTimer = null;
      await housekeeping;
      await dispatcher.stop();
      await deliveries.stop();
    },
  };
}

export type FinanceBackground = ReturnType<typeof createFinanceBackground>;
