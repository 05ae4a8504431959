import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import { createOutgoingEmailsTable } from '../../../core/mail/outgoing-emails.migration.js';
import { createWebhookDeliveriesTable } from '../../../core/webhooks/deliveries.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Identity and access of the finance service: users, accounts, memberships, refresh tokens,
 * password resets, rate-limit buckets and per-account SMTP settings; plus the core webhook
 * delivery queue and outgoing e-mail queue, so the finance service reuses that machinery.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const table = (name: string) => withId(db.schema.createTable(name), dialect);
  const index = (name: string, on: string, columns: string[], unique = false) => {
    const b = db.schema.createIndex(name).on(on).columns(columns);
    return (unique ? b.unique() : b).execute();
  };

  await table('users')
    .addColumn('email', 'text', (c) => c.notNull()) // stored lower-cased
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text') // null: no password yet (added by an admin without one)
    .addColumn('avatar_url', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_super_admin', 'integer', (c) => c.notNull().defaultTo(0))
    // Bumped on password change/reset: access tokens carrying an older version stop working.
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('users_email_uidx', 'users', ['email'], true);
  // At most one SuperAdmin: two concurrent setups cannot both succeed.
  await db.schema
    .createIndex('users_super_admin_uidx')
    .on('users')
    .column('is_super_admin')
    .unique()
    .where('is_super_admin', '=', 1)
    .execute();

  await table('accounts')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await table('memberships')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // admin | agent
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The auth check (account, user) and the member list of an account (by id).
  await index('memberships_account_user_uidx', 'memberships', ['account_id', 'user_id'], true);
  // The accounts of a user, oldest membership first.
  await index('memberships_user_idx', 'memberships', ['user_id', 'id']);

  await table('refresh_tokens')
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('refresh_tokens_hash_uidx', 'refresh_tokens', ['token_hash'], true);
  await index('refresh_tokens_family_idx', 'refresh_tokens', ['family_id']);
  await index('refresh_tokens_user_idx', 'refresh_tokens', ['user_id', 'account_id']);
  await index('refresh_tokens_expires_idx', 'refresh_tokens', ['expires_at']);

  await table('password_resets')
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('password_resets_hash_uidx', 'password_resets', ['token_hash'], true);
  await index('password_resets_user_idx', 'password_resets', ['user_id']);
  await index('password_resets_expires_idx', 'password_resets', ['expires_at']);

  // Fixed-window counters shared by every instance on the same database.
  await db.schema
    .createTable('rate_limit_buckets')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_buckets_pk', ['key', 'window_start'])
    .execute();
  await index('rate_limit_buckets_expires_idx', 'rate_limit_buckets', ['expires_at']);

  await table('smtp_settings')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('secure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_encrypted', 'text', (c) => c.notNull()) // AES-256-GCM (core/security/encryption.ts)
    .addColumn('from_name', 'text')
    .addColumn('from_email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('smtp_settings_account_uidx', 'smtp_settings', ['account_id'], true);

  await createWebhookDeliveriesTable(db, dialect);
  await createOutgoingEmailsTable(db, dialect);
}

export const migration0002: PortableMigration = { up };
