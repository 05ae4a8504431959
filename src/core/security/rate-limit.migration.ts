import type { UntypedDb } from '../db/untyped.js';

/** Creates the rate limiter's counters (core RateLimiter); the services' migrations call it. */
export async function createRateLimitTable(db: UntypedDb): Promise<void> {
  // Fixed-window counters shared by every instance on the same database.
  await db.schema
    .createTable('rate_limit_buckets')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_buckets_pk', ['key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('rate_limit_buckets_expires_idx')
    .on('rate_limit_buckets')
    .columns(['expires_at'])
    .execute();
}
