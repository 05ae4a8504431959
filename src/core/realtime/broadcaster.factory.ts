import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { OutboxDatabase } from '../events/outbox.js';
import { LocalBroadcaster, type Broadcaster, type EventSink } from './broadcaster.js';
import { PostgresBroadcaster } from './broadcaster.postgres.js';

export interface BroadcasterOptions<DB extends OutboxDatabase> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** The database URL (PostgreSQL: the LISTEN connection opens its own session). */
  databaseUrl: string;
  logger: FastifyBaseLogger;
  sink: EventSink;
}

/** SQLite is one process: in-process delivery. PostgreSQL may have several instances: LISTEN/NOTIFY. */
export function createBroadcaster<DB extends OutboxDatabase>(options: BroadcasterOptions<DB>): Broadcaster {
  if (options.dialect === 'postgres') {
    return new PostgresBroadcaster({
      db: options.db as unknown as Kysely<OutboxDatabase>,
      connectionString: options.databaseUrl,
      logger: options.logger,
      sink: options.sink,
    });
  }
  return new LocalBroadcaster(options.sink);
}
