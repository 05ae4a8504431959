import { tooManyRequests } from '../../../core/http/errors.js';
import type { FinanceDeps } from '../../context.js';
import * as repo from './rate-limit.repository.js';

/** One limit: at most `limit` hits per `windowMs` for `key`. */
export interface RateRule {
  key: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The limits of the public identity endpoints (per client address, and per e-mail address where
 * the request names one). Documented in src/finance/README.md.
 */
export const RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: MINUTE },
  loginPerEmail: { limit: 10, windowMs: MINUTE },
  registerPerIp: { limit: 10, windowMs: HOUR },
  setupPerIp: { limit: 10, windowMs: MINUTE },
  forgotPerIp: { limit: 20, windowMs: HOUR },
  forgotPerEmail: { limit: 5, windowMs: HOUR },
  resetPerIp: { limit: 10, windowMs: MINUTE },
  passwordChangePerUser: { limit: 10, windowMs: MINUTE },
} as const;

export const rule = (name: keyof typeof RATE_LIMITS, subject: string): RateRule => ({ key: `${name}:${subject}`, ...RATE_LIMITS[name] });

/**
 * Rate limits kept in the database, so every instance on the same database shares them. Each rule
 * is a sliding-window counter: the current fixed window's count plus the previous window's count
 * weighted by how much of it still overlaps the last `windowMs` (no double burst at a window edge).
 * Every hit is counted in its own short transaction (a refused or failed request still counts);
 * over the limit answers 429 with Retry-After (seconds until a request would pass again).
 */
export class RateLimitService {
  constructor(private readonly deps: FinanceDeps) {}

  async consume(rules: readonly RateRule[]): Promise<void> {
    const now = Date.now();
    const waits = await this.deps.db.transaction().execute(async (trx) => {
      const out: number[] = [];
      for (const r of rules) {
        const windowStart = Math.floor(now / r.windowMs) * r.windowMs;
        // A bucket is still read as "the previous window" during the window after it.
        const current = await repo.hitBucket(trx, r.key, windowStart, windowStart + 2 * r.windowMs);
        const previous = await repo.bucketCount(trx, r.key, windowStart - r.windowMs);
        out.push(rateLimitWaitMs(r, { now, windowStart, current, previous }));
      }
      return out;
    });
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw tooManyRequests(wait / 1000);
  }

  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteExpiredBuckets(this.deps.db, now);
  }
}

/** 0 when the hit is within the limit; otherwise how long until one more hit would be. */
export function rateLimitWaitMs(r: RateRule, s: { now: number; windowStart: number; current: number; previous: number }): number {
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
