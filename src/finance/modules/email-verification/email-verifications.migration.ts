import type { Generated } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Links that prove a user reads their address (a self-registered user, who may invite members only
 * once verified: decisions/0031). Only the SHA-256 of the token is kept; one use, before expiry.
 */
export interface EmailVerificationsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: number;
  /** When the link was used or replaced by a newer one; null while it works. */
  used_at: number | null;
  created_at: number;
}

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('email_verifications'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Looked up by hash only; retired per user; dropped by expiry.
  await db.schema
    .createIndex('email_verifications_hash_uidx')
    .on('email_verifications')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').column('user_id').execute();
  await db.schema
    .createIndex('email_verifications_expires_idx')
    .on('email_verifications')
    .column('expires_at')
    .execute();
}

export const migration0020EmailVerifications: PortableMigration = { up };
