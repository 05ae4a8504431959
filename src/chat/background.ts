import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundRuntime } from '../core/background/runtime.js';
import type { EventListener } from '../core/events/dispatcher.js';
import type { JobDefinition } from '../core/jobs/jobs.js';
import { createSmtpTransport } from '../core/mail/mail.transport.js';
import { instanceTransport } from '../core/mail/mail.worker.js';
import type { EventSink } from '../core/realtime/broadcaster.js';
import { createBroadcaster } from '../core/realtime/broadcaster.factory.js';
import { backgroundOf } from '../core/modules/module.js';
import type { ChatServices } from './container.js';
import type { ChatDeps } from './context.js';
import type { ChatDatabase } from './db/schema.js';
import type { ChatEvents } from './events.js';
import { realtimeListener } from './listeners/realtime.listener.js';
import { chatModules } from './modules.js';

export interface BackgroundOptions {
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
  /** Extra listeners (tests). */
  listeners?: readonly EventListener<ChatDatabase, ChatEvents>[];
  /** Extra jobs (tests). */
  jobs?: readonly JobDefinition[];
  /** The app's realtime hub (set by the app): events reach it through the broadcaster. */
  realtimeSink?: EventSink;
  /** The clock of events and jobs (tests). */
  clock?: () => number;
}

/**
 * The conversation service's background work on core's runtime: its modules' listeners and jobs
 * (chat/modules.ts) plus realtime push, signed deliveries (with Chatwoot's headers), and the mail
 * queue through SMTP_URL; history retention comes with the runtime. Started with the app in
 * production (server.ts) and by the tests that need it.
 */
export function createChatBackground(
  deps: ChatDeps,
  services: ChatServices,
  logger: FastifyBaseLogger,
  options: BackgroundOptions = {},
) {
  const { config } = deps;
  // Realtime push: in process on SQLite, LISTEN/NOTIFY across instances on PostgreSQL.
  const broadcaster = options.realtimeSink
    ? createBroadcaster({
        db: deps.db,
        dialect: deps.dialect,
        databaseUrl: config.chat.databaseUrl,
        logger,
        sink: options.realtimeSink,
      })
    : null;
  const modules = backgroundOf(chatModules, { deps, services, logger });
  const listeners: EventListener<ChatDatabase, ChatEvents>[] = [
    ...modules.listeners,
    ...(broadcaster ? [realtimeListener(broadcaster, modules.declared.realtimeEvents)] : []),
    ...(options.listeners ?? []),
  ];
  const jobs: JobDefinition[] = [...modules.jobs, ...(options.jobs ?? [])];
  return createBackgroundRuntime<ChatDatabase, ChatEvents>({
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
    chatwootHeaders: true,
    // Each module declares the secrets of the subscribers its deliveries go to.
    secretOf: modules.secretOf,
    transportFor: instanceTransport(config.mail.smtpUrl, config.mail.from, createSmtpTransport),
    broadcaster,
    clock: options.clock,
    pollIntervalMs: options.pollIntervalMs,
    webhookTimeoutMs: options.webhookTimeoutMs,
  });
}

export type ChatBackground = ReturnType<typeof createChatBackground>;
