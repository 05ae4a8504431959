import type { FastifyInstance } from 'fastify';

import client from 'prom-client';
import { PUSH_JOB } from '../push/push.jobs.js';
import type { UntypedDb, UntypedExpressions, UntypedQuery } from '../db/untyped.js';

/**
 * Prometheus metrics of the process (off unless METRICS=on or METRICS_PORT is set): request
 * latency per route, and the depth and age of each service's durable queues, read from the
 * database at scrape time (indexed counts): undispatched events (outbox lag), listener retries,
 * due jobs, webhook deliveries, e-mails and push deliveries by status. Default Node metrics (memory, event loop) too.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly sources: { service: string; db: UntypedDb }[] = [];
  private readonly httpDuration: client.Histogram<'service' | 'method' | 'route' | 'status_code'>;
  private readonly storageFull: client.Counter<'service'>;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'ponte_' });
    this.httpDuration = new client.Histogram({
      name: 'ponte_http_request_duration_seconds',
      help: 'HTTP request latency by service, route and status',
      labelNames: ['service', 'method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [this.registry],
    });
    this.storageFull = new client.Counter({
      name: 'ponte_storage_full_total',
      help: 'Requests refused with 503 storage_full because the disk or database is full',
      labelNames: ['service'],
      registers: [this.registry],
    });
    const sources = this.sources;
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      read: (db: UntypedDb) => Promise<[Record<string, string>, number][]>,
    ) =>
      new client.Gauge({
        name,
        help,
        labelNames: ['service', ...labelNames],
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const { service, db } of sources) {
            for (const [labels, value] of await read(db).catch(() => [])) this.set({ service, ...labels }, value);
          }
        },
      });
    const count = async (db: UntypedDb, table: string, where: (q: UntypedQuery) => UntypedQuery) =>
      Number(
        (
          await where(
            db.selectFrom(table).select((eb: UntypedExpressions) => eb.fn.countAll().as('n')),
          ).executeTakeFirst()
        )?.n ?? 0,
      );
    const byStatus = async (db: UntypedDb, table: string, where: (q: UntypedQuery) => UntypedQuery = (q) => q) =>
      (
        (await where(db.selectFrom(table).select(['status', (eb: UntypedExpressions) => eb.fn.countAll().as('n')]))
          .groupBy('status')
          .execute()) as unknown as { status: string; n: number }[]
      ).map((r) => [{ status: r.status }, Number(r.n)] as [Record<string, string>, number]);
    gauge('ponte_outbox_pending_events', 'Events not yet handed to every listener', [], async (db) => [
      [{}, await count(db, 'outbox_events', (q) => q.where('dispatched_at', 'is', null))],
    ]);
    gauge('ponte_outbox_lag_seconds', 'Age of the oldest undispatched event', [], async (db) => {
      const row = await db
        .selectFrom('outbox_events')
        .select('created_at')
        .where('dispatched_at', 'is', null)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return [[{}, row ? Math.max(0, (Date.now() - Number(row.created_at)) / 1000) : 0]];
    });
    gauge('ponte_listener_retries', 'Listener retries by status', ['status'], (db) => byStatus(db, 'outbox_retries'));
    gauge('ponte_jobs_due', 'Jobs due now and not running', [], async (db) => [
      [{}, await count(db, 'jobs', (q) => q.where('status', '=', 'pending').where('run_at', '<=', Date.now()))],
    ]);
    gauge(
      'ponte_webhook_deliveries',
      'Webhook deliveries by status (kept for HISTORY_RETENTION_DAYS)',
      ['status'],
      (db) => byStatus(db, 'webhook_deliveries'),
    );
    gauge('ponte_emails', 'Queued e-mails by status (kept for HISTORY_RETENTION_DAYS)', ['status'], (db) =>
      byStatus(db, 'outgoing_emails'),
    );
    // Push deliveries are jobs (core/push): pending, running, done (delivered, or the subscription
    // was gone), failed (refused, or expired before delivery).
    gauge('ponte_push_deliveries', 'Push deliveries by status (kept for HISTORY_RETENTION_DAYS)', ['status'], (db) =>
      byStatus(db, 'jobs', (q) => q.where('name', '=', PUSH_JOB)),
    );
  }

  /** Adds a service's database to the queue gauges. */
  addSource(service: string, db: UntypedDb): void {
    this.sources.push({ service, db });
  }

  /** Times every request of the app under its route pattern (never the raw URL: bounded labels). */
  instrument(app: FastifyInstance, service: string): void {
    this.storageFull.inc({ service }, 0); // the series exists from the start (alerts on its rate)
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.httpDuration.observe(
        { service, method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  /** Counts a request refused because the storage is full. */
  countStorageFull(service: string): void {
    this.storageFull.inc({ service });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
