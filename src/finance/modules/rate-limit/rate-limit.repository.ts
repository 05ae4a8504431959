import { sql } from 'kysely';
import type { Q } from '../../context.js';

/** Adds one hit to a fixed-window bucket (created on first hit) and returns the bucket's count. */
export async function hitBucket(q: Q, key: string, windowStart: number, expiresAt: number): Promise<number> {
  const row = await q
    .insertInto('rate_limit_buckets')
    .values({ key, window_start: windowStart, count: 1, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_buckets.count + 1` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function deleteExpiredBuckets(q: Q, now: number): Promise<number> {
  const result = await q.deleteFrom('rate_limit_buckets').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The count of a bucket (0 when absent). */
export async function bucketCount(q: Q, key: string, windowStart: number): Promise<number> {
  const row = await q.selectFrom('rate_limit_buckets').select('count').where('key', '=', key).where('window_start', '=', windowStart).executeTakeFirst();
  return row ? Number(row.count) : 0;
}
