import { sql, type Kysely } from 'kysely';
import { tooManyRequests } from '../http/errors.js';
import type { UntypedDb } from '../db/untyped.js';

/** One limit: at most `limit` hits per `windowMs` for `key`. */
export interface RateRule {
  key: string;
  limit: number;
  windowMs: number;
}

/** The table the limiter keeps its counters in (see rate-limit.migration.ts). */
export interface RateLimitBucketsTable {
  key: string;
  window_start: number;
  count: number;
  expires_at: number;
}

interface RateLimitDatabase {
  rate_limit_buckets: RateLimitBucketsTable;
}

/**
 * Rate limits kept in the database, so every instance on the same database shares them. Each rule
 * is a sliding-window counter: the current fixed window's count plus the previous window's count
 * weighted by how much of it still overlaps the last `windowMs` (no double burst at a window edge).
 * Every hit is counted in its own short transaction (a refused or failed request still counts);
 * over the limit throws 429 with Retry-After (seconds until a request would pass again).
 */
export class RateLimiter {
  private readonly db: Kysely<RateLimitDatabase>;

  constructor(db: UntypedDb) {
    this.db = db as Kysely<RateLimitDatabase>;
  }

  async consume(rules: readonly RateRule[]): Promise<void> {
    const now = Date.now();
    const waits = await this.db.transaction().execute(async (trx) => {
      const out: number[] = [];
      for (const r of rules) {
        const windowStart = Math.floor(now / r.windowMs) * r.windowMs;
        // A bucket is still read as "the previous window" during the window after it.
        const current = await hitBucket(trx, r.key, windowStart, windowStart + 2 * r.windowMs);
        const previous = await bucketCount(trx, r.key, windowStart - r.windowMs);
        out.push(rateLimitWaitMs(r, { now, windowStart, current, previous }));
      }
      return out;
    });
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw tooManyRequests(wait / 1000);
  }

  /** Deletes the buckets no rule reads any more; returns how many. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const result = await this.db.deleteFrom('rate_limit_buckets').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Adds one hit to a fixed-window bucket (created on first hit) and returns the bucket's count. */
async function hitBucket(
  q: Kysely<RateLimitDatabase>,
  key: string,
  windowStart: number,
  expiresAt: number,
): Promise<number> {
  const row = await q
    .insertInto('rate_limit_buckets')
    .values({ key, window_start: windowStart, count: 1, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_buckets.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The count of a bucket (0 when absent). */
async function bucketCount(q: Kysely<RateLimitDatabase>, key: string, windowStart: number): Promise<number> {
  const row = await q
    .selectFrom('rate_limit_buckets')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/** 0 when the hit is within the limit; otherwise how long until one more hit would be. */
export function rateLimitWaitMs(
  r: RateRule,
  s: { now: number; windowStart: number; current: number; previous: number },
): number {
  const elapsed = (s.now - s.windowStart) / r.windowMs;
  const estimate = s.previous * (1 - elapsed) + s.current;
  if (estimate <= r.limit) return 0;
  const untilWindowEnd = s.windowStart + r.windowMs - s.now;
  // Within this window the estimate only falls as the previous window's weight fades.
  if (s.current + 1 <= r.limit && s.previous > 0) {
    const fadeTo = 1 - (r.limit - s.current - 1) / s.previous; // the fraction of this window that must have passed
    return Math.max(1000, Math.min(untilWindowEnd, fadeTo * r.windowMs - (s.now - s.windowStart)));
  }
  // Otherwise in the next window, once this window's weight has faded enough.
  const fade = Math.max(0, 1 - (r.limit - 1) / s.current);
  return Math.max(1000, untilWindowEnd + fade * r.windowMs);
}
