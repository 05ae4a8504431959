import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Invitations to join an account. An administrator no longer creates users: they invite an e-mail
 * address, and whoever reads the e-mailed link accepts it (choosing their own password when the
 * address has no user yet). Only the SHA-256 of the link's token is kept.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('invitations'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull()) // lower-cased
    .addColumn('role', 'text', (c) => c.notNull()) // admin | agent
    .addColumn('token_hash', 'text', (c) => c.notNull())
    // pending | accepted | revoked ("expired" is a pending row past expires_at, decided when read)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('accepted_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_token_uidx').on('invitations').column('token_hash').unique().execute();
  // At most one pending invitation per address and account: a second invite renews the first, and
  // two concurrent invites cannot both insert one.
  await db.schema
    .createIndex('invitations_pending_uidx')
    .on('invitations')
    .columns(['account_id', 'email'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // The account's list, newest first.
  await db.schema.createIndex('invitations_account_idx').on('invitations').columns(['account_id', 'id']).execute();
  // Housekeeping of long-expired rows.
  await db.schema.createIndex('invitations_expires_idx').on('invitations').column('expires_at').execute();
}

export const migration0006: PortableMigration = { up };
