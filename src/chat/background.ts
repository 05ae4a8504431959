import type { FastifyBaseLogger } from 'fastify';
import { OutboxDispatcher, type EventListener } from '../core/events/dispatcher.js';
import { DestinationGuard } from '../core/webhooks/destination-guard.js';
import { DeliveryWorker } from '../core/webhooks/worker.js';
import type { ChatServices } from './container.js';
import type { ChatDeps } from './context.js';
import type { ChatDatabase } from './db/schema.js';
import { agentBotListener } from './listeners/agent-bot.listener.js';
import { webhookListener } from './listeners/webhook.listener.js';

export interface BackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra listeners (realtime, automation) registered by the app. */
  listeners?: readonly EventListener<ChatDatabase>[];
}

/**
 * The conversation service's background work: the outbox dispatcher (webhook fan-out, agent bots,
 * and the listeners passed in) and the webhook delivery worker. Started with the app in
 * production (server.ts) and by the tests that need it.
 */
export function createChatBackground(deps: ChatDeps, services: ChatServices, logger: FastifyBaseLogger, options: BackgroundOptions = {}) {
  const dispatcher = new OutboxDispatcher<ChatDatabase>({
    db: deps.db,
    dialect: deps.dialect,
    logger,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    listeners: [webhookListener(), agentBotListener(), ...(options.listeners ?? [])],
  });
  const worker = new DeliveryWorker<ChatDatabase>({
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
  return {
    dispatcher,
    worker,
    start() {
      dispatcher.start();
      worker.start();
    },
    async stop() {
      await dispatcher.stop();
      await worker.stop();
    },
  };
}

export type ChatBackground = ReturnType<typeof createChatBackground>;
