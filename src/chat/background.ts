import type { FastifyBaseLogger } from 'fastify';
import { OutboxDispatcher, type EventListener } from '../core/events/dispatcher.js';
import { createSmtpTransport } from '../core/mail/mail.transport.js';
import { MailWorker } from '../core/mail/mail.worker.js';
import { createBroadcaster, type EventSink } from '../core/realtime/broadcaster.js';
import { HistoryPruner } from '../core/retention/history-pruner.js';
import { DestinationGuard } from '../core/webhooks/destination-guard.js';
import { DeliveryWorker } from '../core/webhooks/worker.js';
import { createChatServices, type ChatServices } from './container.js';
import type { ChatDeps } from './context.js';
import type { ChatDatabase } from './db/schema.js';
import { agentBotListener } from './listeners/agent-bot.listener.js';
import { automationListener } from './listeners/automation.listener.js';
import { realtimeListener } from './listeners/realtime.listener.js';
import { webhookListener } from './listeners/webhook.listener.js';
import { AutomationEngine } from './modules/automation-rules/automation.engine.js';

export interface BackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra listeners (realtime, automation) registered by the app. */
  listeners?: readonly EventListener<ChatDatabase>[];
  /** The app's realtime hub (set by the app): events reach it through the broadcaster. */
  realtimeSink?: EventSink;
}

/**
 * The conversation service's background work: the outbox dispatcher (webhook fan-out, agent bots,
 * automation rules, and the listeners passed in), the webhook delivery worker, the mail worker and
 * the pruning of old history (HISTORY_RETENTION_DAYS).
 * Started with the app in production (server.ts) and by the tests that need it.
 */
export function createChatBackground(deps: ChatDeps, services: ChatServices, logger: FastifyBaseLogger, options: BackgroundOptions = {}) {
  // Declared first so the dispatcher can wake it when a batch queued deliveries.
  let worker: DeliveryWorker<ChatDatabase> | null = null;
  // Realtime push: in process on SQLite, LISTEN/NOTIFY across instances on PostgreSQL.
  const broadcaster = options.realtimeSink
    ? createBroadcaster({ db: deps.db, dialect: deps.dialect, databaseUrl: deps.config.chat.databaseUrl, logger, sink: options.realtimeSink })
    : null;
  const dispatcher = new OutboxDispatcher<ChatDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    listeners: [
      webhookListener(),
      agentBotListener(),
      // Automation rules act through the services, built on the dispatch transaction.
      automationListener(new AutomationEngine(deps, (db) => createChatServices({ ...deps, db }), logger)),
      ...(broadcaster ? [realtimeListener(broadcaster)] : []),
      ...(options.listeners ?? []),
    ],
    onDispatched: () => worker?.poke(),
  });
  worker = new DeliveryWorker<ChatDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    guard: new DestinationGuard(deps.config.webhooks.allowedHosts),
    retryDelaysMs: deps.config.webhooks.retryDelaysMs,
    leaseMs: deps.config.webhooks.leaseMs,
    timeoutMs: options.webhookTimeoutMs,
    pollIntervalMs: options.pollIntervalMs ?? 200,
    async secretOf(delivery) {
      if (delivery.subscriber_type === 'webhook') return services.webhooks.secretOf(delivery.subscriber_id);
      if (delivery.subscriber_type === 'agent_bot') return services.agentBots.secretOf(delivery.subscriber_id);
      return null;
    },
  });
  const deliveries = worker;
  // Outgoing e-mail (automation send_email): queued in transactions, sent here.
  const mail = new MailWorker<ChatDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    transport: deps.config.mail.smtpUrl ? createSmtpTransport(deps.config.mail.smtpUrl) : null,
    from: deps.config.mail.from,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
  });
  const history = new HistoryPruner({ db: deps.db, logger, retentionMs: deps.config.historyRetentionMs });
  // Sign-in rate-limit counters past their windows, every 10 minutes.
  let purgeTimer: NodeJS.Timeout | null = null;
  const purgeRateLimits = () =>
    services.rateLimits.purgeExpired().catch((err: unknown) => logger.warn({ err }, 'rate-limit housekeeping failed'));
  return {
    dispatcher,
    worker: deliveries,
    mail,
    history,
    async start() {
      await broadcaster?.start(); // listening before anything is announced
      dispatcher.start();
      deliveries.start();
      mail.start();
      history.start();
      purgeTimer = setInterval(() => void purgeRateLimits(), 10 * 60_000);
      purgeTimer.unref?.();
    },
    async stop() {
      if (purgeTimer) clearInterval(purgeTimer);
      purgeTimer = null;
      await history.stop();
      await dispatcher.stop();
      await broadcaster?.stop();
      await deliveries.stop();
      await mail.stop();
    },
  };
}

export type ChatBackground = ReturnType<typeof createChatBackground>;
