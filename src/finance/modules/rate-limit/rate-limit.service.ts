import { RateLimiter, type RateRule } from '../../../core/security/rate-limit.js';
import type { FinanceDeps } from '../../context.js';

export { rateLimitWaitMs, type RateRule } from '../../../core/security/rate-limit.js';

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
  invitationLookupPerIp: { limit: 30, windowMs: MINUTE },
  invitationAcceptPerIp: { limit: 10, windowMs: MINUTE },
  verifyPerIp: { limit: 10, windowMs: MINUTE },
  verifyResendPerUser: { limit: 5, windowMs: HOUR },
} as const;

export const rule = (name: keyof typeof RATE_LIMITS, subject: string): RateRule => ({
  key: `${name}:${subject}`,
  ...RATE_LIMITS[name],
});

/** The finance service's limiter (core's RateLimiter on the finance database). */
export class RateLimitService extends RateLimiter {
  constructor(deps: FinanceDeps) {
    super(deps.db);
  }
}
