import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Why a set-password link was issued. */
export type PasswordTokenPurpose = 'invitation' | 'reset';

/**
 * Single-use links that let a user choose a password: the invitation a new agent receives, and the
 * forgotten-password link. Only the SHA-256 of the token is kept. Users are global, so a token
 * belongs to a user, not to an account; `account_id` only names the account an invitation is for
 * (its name on the page and in the e-mail).
 */
export interface PasswordTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: PasswordTokenPurpose;
  token_hash: string;
  account_id: number | null;
  expires_at: number;
  /** When the link was used, or retired by a newer one or a new password; null while it works. */
  used_at: number | null;
  created_at: number;
}
export type PasswordToken = Selectable<PasswordTokensTable>;

/**
 * The token table: the token hash is unique (the only way a token is looked up); the user index
 * serves retiring a user's other links and the cascade when a user is deleted; the expiry index
 * serves the housekeeping that drops old links.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('password_tokens'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('password_tokens_hash_uidx')
    .on('password_tokens')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema.createIndex('password_tokens_user_idx').on('password_tokens').column('user_id').execute();
  await db.schema.createIndex('password_tokens_account_idx').on('password_tokens').column('account_id').execute();
  await db.schema.createIndex('password_tokens_expiry_idx').on('password_tokens').column('expires_at').execute();
}

export const migration0120PasswordTokens: PortableMigration = { up };
