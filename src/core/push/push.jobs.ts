import type { Kysely, Transaction } from 'kysely';
import type { JobsDatabase } from '../jobs/jobs.migration.js';
import { enqueueJob, JobFailure, type JobDefinition } from '../jobs/jobs.js';
import { fitMessage, type PushMessage, type PushSubscription, type PushUrgency } from './push.message.js';
import type { PushSender } from './push.sender.js';

/**
 * Durable push delivery on the job scheduler: one job per message and subscription, queued in the
 * transaction that decided it, sent by the job runner outside any transaction, retried with backoff
 * (5xx, 429, no answer; never before a Retry-After), ended without retry on another 4xx, and
 * reported to the subscription's owner when the push service says it is gone (404, 410).
 *
 * The job names its subscription by `target`, an opaque reference of the owning module (a row id):
 * the owner resolves it at send time, so a subscription deleted meanwhile is not sent to and one
 * whose keys changed is sent with the new keys.
 */

export const PUSH_JOB = 'core.push_delivery';

/** How long a message waits for an offline device by default (24 hours). */
export const DEFAULT_PUSH_TTL_SECONDS = 24 * 3600;

export interface NewPush {
  /** The owner's reference to the subscription (resolved by `subscriptionOf` when sending). */
  target: string;
  message: PushMessage;
  /** Default 24 hours; the message is dropped once it has passed (no late retries). */
  ttlSeconds?: number;
  /** Default `normal`. */
  urgency?: PushUrgency;
  /** Web Push `Topic`: replaces an undelivered message of the same topic. */
  topic?: string;
}

interface PushJobPayload {
  target: string;
  message: PushMessage;
  urgency: PushUrgency;
  topic?: string;
  /** When the message stops being worth sending (epoch ms). */
  expiresAt: number;
}

/**
 * Queues one push in the caller's transaction (it is sent if and only if that commits). The body
 * is shortened to fit one push; a title or data too long to fit throws (the caller's bug).
 */
export async function enqueuePush<DB extends JobsDatabase>(
  trx: Transaction<DB> | Kysely<DB>,
  push: NewPush,
  now = Date.now(),
): Promise<void> {
  if (push.topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(push.topic))
    throw new RangeError('a push topic is 1 to 32 base64url characters');
  const ttlSeconds = push.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS;
  const payload: PushJobPayload = {
    target: push.target,
    message: fitMessage(push.message),
    urgency: push.urgency ?? 'normal',
    ...(push.topic ? { topic: push.topic } : {}),
    expiresAt: now + Math.max(0, ttlSeconds) * 1000,
  };
  await enqueueJob(trx, { name: PUSH_JOB, payload }, now);
}

export interface PushDeliveryOptions {
  sender: PushSender;
  /** The subscription a target names now, or null when it no longer exists (nothing is sent). */
  subscriptionOf(target: string): Promise<PushSubscription | null>;
  /** The push service no longer knows the subscription: its owner removes it (idempotently). */
  gone(target: string, reason: { status: number; error: string }): Promise<void>;
  /** Waits before each retry (default the scheduler's: 10 s, 1 min, 5 min, 30 min). */
  retryDelaysMs?: readonly number[];
}

/** The job that sends queued pushes; the owning module declares it among its jobs. */
export function pushDeliveryJob(options: PushDeliveryOptions): JobDefinition<PushJobPayload> {
  return {
    name: PUSH_JOB,
    retryDelaysMs: options.retryDelaysMs,
    // Longer than a token request and a send with their timeouts.
    leaseMs: 2 * 60_000,
    async handle(job, { now, logger }) {
      const push = job.payload;
      const log = { jobId: job.id, target: push.target, attempts: job.attempts };
      if (now >= push.expiresAt) throw new JobFailure('expired before it could be delivered', { retry: false });
      const subscription = await options.subscriptionOf(push.target);
      if (!subscription) {
        logger.debug(log, 'push not sent: the subscription no longer exists');
        return;
      }
      const outcome = await options.sender.send(subscription, push.message, {
        ttlSeconds: Math.floor((push.expiresAt - now) / 1000),
        urgency: push.urgency,
        topic: push.topic,
      });
      switch (outcome.result) {
        case 'delivered':
          logger.debug({ ...log, status: outcome.status }, 'push delivered');
          return;
        case 'gone':
          await options.gone(push.target, { status: outcome.status, error: outcome.error });
          logger.info({ ...log, status: outcome.status }, 'push subscription gone: reported to its owner');
          return;
        case 'failed':
          throw new JobFailure(outcome.error, { retry: false });
        case 'retry': {
          const notBefore = outcome.retryAfterMs === undefined ? undefined : now + outcome.retryAfterMs;
          if (notBefore !== undefined && notBefore >= push.expiresAt)
            throw new JobFailure(`${outcome.error} (asked to wait past the message's expiry)`, { retry: false });
          throw new JobFailure(outcome.error, { notBefore });
        }
      }
    },
  };
}
