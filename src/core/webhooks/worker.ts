import { PollLoop } from '../background/poll-loop.js';
import { LazyAgent } from '../http/outgoing-agent.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import {
  claimDue,
  markCancelled,
  markFailed,
  markSucceeded,
  type DeliveriesDatabase,
  type Delivery,
} from './deliveries.js';
import { type DestinationGuard, DestinationRefused } from './destination-guard.js';
import { signatureHeaders } from './signer.js';

export interface DeliveryWorkerOptions<DB extends DeliveriesDatabase> {
  db: Kysely<DB>;
  dialect: DialectName;
  logger: FastifyBaseLogger;
  /**
   * The signing secret of a delivery's subscriber, or null when the subscriber is gone (the
   * delivery is then cancelled). Looked up at send time, so a rotated secret applies to retries.
   */
  secretOf(delivery: Delivery): Promise<string | null>;
  guard: DestinationGuard;
  /** Delay before each retry, in ms; its length is the number of retries (default 10 s, 1 min, 5 min). */
  retryDelaysMs?: readonly number[];
  /** Per-attempt timeout (10 s: the contract). */
  timeoutMs?: number;
  /** Lease on a claimed delivery; longer than the timeout. A crashed worker's deliveries are reclaimed after it. */
  leaseMs?: number;
  pollIntervalMs?: number;
  /** Attempts in flight at once, and per subscriber (so one slow receiver cannot hold every slot). */
  concurrency?: number;
  perSubscriber?: number;
  userAgent?: string;
  /** Adds Chatwoot's X-Chatwoot-* signature headers (the conversation service's receivers expect them). */
  chatwootHeaders?: boolean;
}

export const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000, 300_000] as const;

/**
 * Sends queued webhook deliveries: HTTP POST of the stored JSON body, signed, 10 s timeout,
 * redirects not followed; 2xx is success, anything else (or a timeout, or a refused destination)
 * is a failure retried after growing delays until the retries run out. Attempts run concurrently
 * and never inside a database transaction.
 */
export class DeliveryWorker<DB extends DeliveriesDatabase> {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perSubscriberCount = new Map<string, number>();
  private readonly agent: LazyAgent;
  private readonly loop: PollLoop;
  /** Outcomes waiting to be written; flushed together in one transaction (one commit for many). */
  private outcomes: { write: (q: Kysely<DB>) => Promise<void>; done: (err?: unknown) => void }[] = [];
  private flushing = false;
  /**
   * The busy subscribers of the last claim that came back short, and when: nothing else was due
   * then. A claim that excludes busy subscribers reads past all of their due deliveries (a backlog
   * of one receiver is read whole), so while that set is unchanged and nothing new was queued, a
   * freed slot does not claim again before the next poll interval. `announced` counts the pokes
   * for new deliveries: one that came while the short claim ran may be for anyone.
   */
  private exhausted: { busy: string; at: number; announced: number } | null = null;
  private announced = 0;

  constructor(private readonly options: DeliveryWorkerOptions<DB>) {
    this.agent = new LazyAgent({
      connect: { lookup: options.guard.lookup, timeout: this.timeoutMs },
      keepAliveTimeout: 4_000,
    });
    // Finished attempts poke the loop (a free slot); otherwise it looks every poll interval.
    this.loop = new PollLoop(
      async () => {
        const free = (options.concurrency ?? 16) - this.inFlight.size;
        if (free > 0) {
          const busy = this.busySubscribers();
          const key = busy.sort().join('\n');
          const { exhausted, announced } = this;
          if (
            busy.length > 0 &&
            exhausted?.busy === key &&
            exhausted.announced === announced &&
            Date.now() - exhausted.at < this.pollIntervalMs
          )
            return this.pollIntervalMs;
          const claimed = await this.claim(free, busy);
          this.exhausted = busy.length > 0 && claimed.length < free ? { busy: key, at: Date.now(), announced } : null;
          for (const delivery of claimed) this.launch(delivery);
        }
        return this.pollIntervalMs;
      },
      (err) => options.logger.error({ err }, 'webhook claim failed'),
      this.pollIntervalMs,
    );
  }

  private get pollIntervalMs() {
    return this.options.pollIntervalMs ?? 200;
  }

  private get timeoutMs() {
    return this.options.timeoutMs ?? 10_000;
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the attempts in flight. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.agent.close();
  }

  /** Asks for a claim soon: new deliveries were queued. */
  poke(): void {
    this.announced += 1;
    this.loop.poke();
  }

  private busySubscribers(): string[] {
    const cap = this.options.perSubscriber ?? 2;
    return [...this.perSubscriberCount.entries()].filter(([, n]) => n >= cap).map(([key]) => key);
  }

  private claim(limit: number, busy = this.busySubscribers()) {
    return claimDue(this.options.db, this.options.dialect, {
      now: Date.now(),
      leaseMs: this.options.leaseMs ?? this.timeoutMs * 3,
      limit,
      busy,
    });
  }

  private launch(delivery: Delivery) {
    const key = `${delivery.subscriber_type}:${delivery.subscriber_id}`;
    this.perSubscriberCount.set(key, (this.perSubscriberCount.get(key) ?? 0) + 1);
    const task = this.attempt(delivery)
      .catch((err) => this.options.logger.error({ err, deliveryId: delivery.id }, 'webhook attempt crashed'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        const n = (this.perSubscriberCount.get(key) ?? 1) - 1;
        if (n <= 0) this.perSubscriberCount.delete(key);
        else this.perSubscriberCount.set(key, n);
        // A slot came free.
        this.loop.poke();
      });
    this.inFlight.set(delivery.id, task);
  }

  /** Claims and sends everything due now, waiting for the attempts (tests and tools). */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.options.concurrency ?? 16);
    await Promise.all(claimed.map((d) => this.attempt(d)));
    return claimed.length;
  }

  /**
   * Writes an attempt's outcome. Outcomes that finish together are written in one transaction
   * (on SQLite with synchronous=FULL each commit is an fsync), and the attempt resolves once its
   * outcome is committed.
   */
  private record(write: (q: Kysely<DB>) => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ write, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.flushing) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0);
        try {
          await this.options.db.transaction().execute(async (trx) => {
            for (const o of batch) await o.write(trx);
          });
          for (const o of batch) o.done();
        } catch (err) {
          for (const o of batch) o.done(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const { logger } = this.options;
    const secret = await this.options.secretOf(delivery);
    if (secret === null) {
      await this.record((q) => markCancelled(q, delivery.id, 'the subscriber no longer exists'));
      return;
    }
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      this.options.guard.checkUrl(delivery.url);
      const headers = {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent ?? 'Ponte-Webhooks/1.0',
        ...signatureHeaders(secret, delivery.id, Math.floor(started / 1000), delivery.payload, {
          chatwoot: this.options.chatwootHeaders ?? false,
        }),
      };
      // undici's `request` rather than fetch: the same connection pool without WHATWG streams, a
      // third of the CPU per delivery. Redirects are not followed (maxRedirections is 0).
      const { agent, request } = await this.agent.client();
      const response = await request(delivery.url, {
        method: 'POST',
        headers,
        body: delivery.payload,
        signal: AbortSignal.timeout(this.timeoutMs),
        dispatcher: agent,
      });
      statusCode = response.statusCode;
      // Read (and drop) the body so the connection can be reused; bounded by the same timeout.
      await response.body.dump().catch(() => undefined);
      if (statusCode < 200 || statusCode >= 300) error = `receiver answered ${statusCode}`;
    } catch (err) {
      error = describe(err, this.timeoutMs);
    }
    const now = Date.now();
    if (error === null) {
      await this.record((q) => markSucceeded(q, delivery.id, statusCode ?? 200, now));
      logger.debug({ deliveryId: delivery.id, ms: now - started }, 'webhook delivered');
      return;
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const retryIndex = delivery.attempts - 1;
    const retryAt = retryIndex < delays.length ? now + delays[retryIndex] : null;
    await this.record((q) => markFailed(q, delivery.id, { statusCode, error, retryAt }));
    logger.info(
      { deliveryId: delivery.id, attempts: delivery.attempts, error, final: retryAt === null },
      'webhook attempt failed',
    );
  }
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  if (err instanceof DestinationRefused) return err.message;
  if (e?.cause?.name === 'DestinationRefused' || e?.cause?.code === 'EDESTINATIONREFUSED')
    return e.cause.message ?? 'destination refused';
  const code = e?.cause?.code;
  return code ? `${code}: ${e.cause?.message ?? e.message}` : (e?.message ?? String(err));
}
