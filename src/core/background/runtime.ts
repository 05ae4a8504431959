import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { shutdownDeadlineOf } from '../http/shutdown.js';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { OutboxDispatcher, type EventListener, type EventsDatabase } from '../events/dispatcher.js';
import type { EventMap } from '../events/outbox.js';
import { JobRunner, type JobDefinition } from '../jobs/jobs.js';
import { MailWorker, type TransportFor } from '../mail/mail.worker.js';
import type { Broadcaster } from '../realtime/broadcaster.js';
import { historyRetentionJob } from '../retention/history-pruner.js';
import type { Delivery } from '../webhooks/deliveries.js';
import { DestinationGuard } from '../webhooks/destination-guard.js';
import { DeliveryWorker } from '../webhooks/worker.js';
import { settledBy } from './deadline.js';
import type { UntypedSchema } from '../db/untyped.js';

export interface BackgroundSettings {
  /** Hosts webhooks may reach although they are not public (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  retryDelaysMs: readonly number[];
  leaseMs: number;
  /** How long finished history is kept (ms; 0 keeps it). */
  historyRetentionMs: number;
}

export interface BackgroundRuntimeOptions<DB extends EventsDatabase, M extends EventMap<M>> {
  db: Kysely<DB>;
  dialect: DialectName;
  logger: FastifyBaseLogger;
  settings: BackgroundSettings;
  listeners: readonly EventListener<DB, M>[];
  jobs: readonly JobDefinition[];
  /** The signing secret of a delivery's subscriber, or null when it is gone (the delivery is cancelled). */
  secretOf(delivery: Delivery): Promise<string | null>;
  /** Adds Chatwoot's X-Chatwoot-* signature headers to deliveries (the conversation service). */
  chatwootHeaders: boolean;
  /** Where a queued e-mail is sent through (SMTP_URL, or an account's own server). */
  transportFor: TransportFor;
  /** Realtime push across instances; started before anything is dispatched. */
  broadcaster?: Broadcaster | null;
  clock?: () => number;
  /** How often idle loops look for work (ms); tests use small values. */
  pollIntervalMs?: number;
  /** Overrides the 10 s attempt timeout (tests of the timeout itself keep the default). */
  webhookTimeoutMs?: number;
}

/**
 * The background work of a service, the same for both: the outbox dispatcher (the service's
 * listeners), the signed webhook delivery worker, the durable mail queue, and the job runner (the
 * service's jobs plus the pruning of old history). `start` runs them in order, realtime first (so
 * nothing is announced before it listens). `stop` makes every one stop claiming at once, then waits
 * for the work they hold (deliveries and e-mails in flight, a running job) before the database
 * closes; with a deadline (a bounded shutdown), only until then: what still runs is left to its lease.
 */
export function createBackgroundRuntime<DB extends EventsDatabase, M extends EventMap<M>>(
  options: BackgroundRuntimeOptions<DB, M>,
) {
  const { db, dialect, logger, settings } = options;
  const poll = options.pollIntervalMs;
  let deliveries: DeliveryWorker<UntypedSchema> | null = null;
  let mail: MailWorker<UntypedSchema> | null = null;
  const dispatcher = new OutboxDispatcher<DB, M>({
    db,
    dialect,
    logger,
    listeners: options.listeners,
    clock: options.clock,
    pollIntervalMs: poll ?? 100,
    // A batch may have queued deliveries or e-mails: look now rather than at the next poll.
    onDispatched: () => {
      deliveries?.poke();
      mail?.poke();
    },
  });
  deliveries = new DeliveryWorker<UntypedSchema>({
    db,
    dialect,
    logger,
    guard: new DestinationGuard(settings.allowedHosts),
    retryDelaysMs: settings.retryDelaysMs,
    leaseMs: settings.leaseMs,
    timeoutMs: options.webhookTimeoutMs,
    pollIntervalMs: poll ?? 200,
    chatwootHeaders: options.chatwootHeaders,
    secretOf: options.secretOf,
  });
  mail = new MailWorker<UntypedSchema>({
    db,
    dialect,
    logger,
    transportFor: options.transportFor,
    pollIntervalMs: poll ?? 1000,
  });
  const jobs = new JobRunner({
    db,
    dialect,
    logger,
    clock: options.clock,
    pollIntervalMs: poll ?? 1000,
    definitions: [historyRetentionJob(db, settings.historyRetentionMs), ...options.jobs],
  });
  const worker = deliveries;
  const mailer = mail;
  return {
    dispatcher,
    worker,
    mail: mailer,
    jobs,
    async start() {
      await options.broadcaster?.start();
      dispatcher.start();
      worker.start();
      mailer.start();
      await jobs.start();
    },
    async stop(deadline?: number) {
      const stopping = Promise.all([
        jobs.stop(),
        // Realtime stops after the dispatcher, whose listeners push through it.
        dispatcher.stop().then(() => options.broadcaster?.stop()),
        worker.stop(),
        mailer.stop(),
      ]);
      if (!(await settledBy(stopping, deadline))) {
        stopping.catch((err: unknown) => logger.warn({ err }, 'background work failed after the shutdown bound'));
        logger.warn('shutdown bound reached: background work still running is left to its lease');
      }
    },
  };
}

export type BackgroundRuntime = ReturnType<typeof createBackgroundRuntime>;

/**
 * Stops the background with its app: it stops claiming as soon as the app starts closing, while
 * requests in flight finish, and the app's close waits for it (until the shutdown's deadline, when
 * there is one: `closeWithin`).
 */
export function stopWithTheApp(app: FastifyInstance, background: { stop(deadline?: number): Promise<void> }): void {
  let stopping: Promise<void> | undefined;
  app.addHook('preClose', async () => {
    stopping = background.stop(shutdownDeadlineOf(app));
    stopping.catch(() => {}); // awaited in onClose
  });
  app.addHook('onClose', async () => stopping ?? background.stop());
}
