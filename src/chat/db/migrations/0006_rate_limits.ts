import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { createRateLimitTable } from '../../../core/security/rate-limit.migration.js';

/** Counters of the sign-in rate limits (core's RateLimiter). */
export const migration0006RateLimits: PortableMigration = { up: (db: Kysely<any>) => createRateLimitTable(db) };
