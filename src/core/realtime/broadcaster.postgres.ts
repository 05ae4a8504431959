import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../db/database.js';
import type { OutboxDatabase } from '../events/outbox.js';
import type { Broadcaster, EventSink, RealtimeEvent } from './broadcaster.js';

export interface PostgresBroadcasterOptions {
  /** The service's pool: NOTIFY and event reads go through it (its search_path picks the schema). */
  db: Kysely<OutboxDatabase>;
  /** Where the dedicated LISTEN connection connects (the service's database URL). */
  connectionString: string;
  logger: FastifyBaseLogger;
  sink: EventSink;
  /** Base channel name; the schema is appended when it is not `public`. */
  channel?: string;
  /** First delay before reconnecting the LISTEN connection (doubles up to 30 s). */
  reconnectDelayMs?: number;
}

/** NOTIFY payloads are limited to 8000 bytes: ids are sent comma-separated in chunks below that. */
const MAX_PAYLOAD_BYTES = 7900;
const MAX_IDS_PER_NOTIFICATION = 1000;
const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * Several instances on one PostgreSQL database: after commit, the instance that dispatched an event
 * sends `pg_notify('<channel>', '<id>[,<id>...]')` (ids only, never payloads); every instance holds
 * one dedicated connection doing `LISTEN <channel>` (reconnected with backoff when it drops), reads
 * the announced rows from `outbox_events` by primary key (one query per notification) and hands
 * them to its hub in id order. Notifications sent while an instance's LISTEN connection is down
 * are not replayed (realtime is best effort).
 *
 * The channel is per schema (`ponte_realtime`, or `ponte_realtime_<schema>` outside `public`), since
 * NOTIFY is database-wide and ids from another schema's outbox would name other events.
 */
export class PostgresBroadcaster implements Broadcaster {
  private channel: string | null = null;
  private client: pg.Client | null = null;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay: number;
  private queue: number[] = [];
  private flushing: Promise<void> | null = null;
  private receiving: Promise<void> = Promise.resolve();

  constructor(private readonly options: PostgresBroadcasterOptions) {
    this.reconnectDelay = options.reconnectDelayMs ?? 500;
  }

  publish(event: RealtimeEvent): void {
    if (this.stopped || this.channel === null) return;
    this.queue.push(event.id);
    this.scheduleFlush();
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.channel ??= await this.resolveChannel();
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    while (this.flushing) await this.flushing;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
    await this.receiving;
  }

  private async resolveChannel(): Promise<string> {
    const base = this.options.channel ?? 'ponte_realtime';
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(this.options.db);
    const schema = rows[0]?.schema ?? 'public';
    if (schema === 'public') return base;
    const name = `${base}_${schema}`.toLowerCase();
    // Identifiers are at most 63 bytes; a long or unusual schema name is replaced by its hash.
    if (/^[a-z_][a-z0-9_]*$/.test(name) && name.length <= 63) return name;
    return `${base}_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
  }

  private async connect(): Promise<void> {
    const { logger } = this.options;
    const pg = await loadPg();
    const client = new pg.Client({ connectionString: this.options.connectionString, keepAlive: true });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (err) logger.warn({ err }, 'realtime LISTEN connection lost');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.receive(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      this.reconnectDelay = this.options.reconnectDelayMs ?? 500;
    } catch (err) {
      lost(err);
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, MAX_RECONNECT_DELAY_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) void this.connect();
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private async flush(): Promise<void> {
    const ids = this.queue;
    this.queue = [];
    try {
      for (const payload of chunkIds(ids)) {
        await sql`select pg_notify(${this.channel}, ${payload})`.execute(this.options.db);
      }
    } catch (err) {
      this.options.logger.warn({ err, events: ids.length }, 'realtime NOTIFY failed');
    } finally {
      this.flushing = null;
      if (this.queue.length > 0) this.scheduleFlush();
    }
  }

  /** Events published in the same turn (one dispatch batch) share notifications. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** Reads the announced events (in order, one notification at a time) and hands them to the sink. */
  private receive(payload: string): void {
    const ids = parseIds(payload);
    if (ids.length === 0) return;
    this.receiving = this.receiving
      .then(async () => {
        const rows = await this.options.db
          .selectFrom('outbox_events')
          .select(['id', 'account_id', 'name', 'payload', 'origin', 'created_at'])
          .where('id', 'in', ids)
          .orderBy('id')
          .execute();
        for (const row of rows) {
          await this.options.sink({
            id: row.id,
            accountId: row.account_id,
            name: row.name,
            payload: JSON.parse(row.payload) as Record<string, unknown>,
            origin: row.origin,
            createdAt: row.created_at,
          });
        }
      })
      .catch((err) => this.options.logger.warn({ err }, 'realtime event read failed'));
  }
}

/** Comma-separated id lists, each under the NOTIFY payload limit. */
export function chunkIds(ids: readonly number[]): string[] {
  const chunks: string[] = [];
  let current = '';
  let count = 0;
  for (const id of ids) {
    const part = String(id);
    if (current && (current.length + 1 + part.length > MAX_PAYLOAD_BYTES || count >= MAX_IDS_PER_NOTIFICATION)) {
      chunks.push(current);
      current = '';
      count = 0;
    }
    current = current ? `${current},${part}` : part;
    count += 1;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** The ids of a notification payload; anything malformed yields none. */
export function parseIds(payload: string): number[] {
  if (payload.length > MAX_PAYLOAD_BYTES || !/^\d{1,15}(,\d{1,15})*$/.test(payload)) return [];
  return payload
    .split(',')
    .slice(0, MAX_IDS_PER_NOTIFICATION)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}
