import type { PortableMigration } from '../../../core/db/migrator.js';
import { createRateLimitTable } from '../../../core/security/rate-limit.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Counters of the sign-in rate limits (core's RateLimiter). */
export const migration0006RateLimits: PortableMigration = { up: (db: UntypedDb) => createRateLimitTable(db) };
