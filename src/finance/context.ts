import type { Language } from '../core/i18n/language.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../core/db/database.js';
import type { SecretBox } from '../core/security/encryption.js';
import type { FinanceDatabase, MembershipRole } from './db/schema.js';

/** Keys the finance service derives from its configured (or generated) secrets. */
export interface FinanceSecrets {
  /** HS256 key of access tokens. */
  readonly jwtKey: Uint8Array;
  /** Seals secrets at rest (SMTP passwords). */
  readonly box: SecretBox;
}

/** What every finance service gets. */
export interface FinanceDeps {
  readonly db: Kysely<FinanceDatabase>;
  readonly dialect: DialectName;
  readonly config: Config;
  readonly secrets: FinanceSecrets;
  readonly logger: FastifyBaseLogger;
}

/** Executor accepted by repositories: the root handle or an open transaction. */
export type Q = Kysely<FinanceDatabase>;

/** An open transaction: what recording an event (and joining a caller's work) requires. */
export type Trx = Transaction<FinanceDatabase>;

/**
 * Who acts, in which account, with which role: built by the auth hook from the access token (the
 * account is the one the token was issued for; switch-account issues tokens for another). Services
 * take it first and scope every query on account data by `accountId`.
 */
export interface FinanceContext {
  readonly accountId: number;
  readonly userId: number;
  /** The membership role, read from the database on every request (not trusted from the token). */
  readonly role: MembershipRole;
  readonly isSuperAdmin: boolean;
  /**
   * The language the request asks for (Accept-Language), if it names one Ponte speaks: e-mails it
   * causes are written in it, else in the account's language (its locale).
   */
  readonly language?: Language;
}

/** Administrators of the account; a SuperAdmin counts as one in every account they belong to. */
export const isAdmin = (ctx: FinanceContext) => ctx.role === 'admin' || ctx.isSuperAdmin;

/** Ids are integers in the database and strings in the API. */
export const idString = (id: number) => String(id);
