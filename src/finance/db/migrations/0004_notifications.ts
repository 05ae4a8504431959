import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Notifications, alert preferences, the accountant's report settings and the claims of daily jobs.
 * Bills and invoices are referenced from a notification's `data` JSON only (no foreign key): a
 * notification outlives the row it talks about.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const table = (name: string) => withId(db.schema.createTable(name), dialect);
  const index = (name: string, on: string, columns: string[], unique = false) => {
    const b = db.schema.createIndex(name).on(on).columns(columns);
    return (unique ? b.unique() : b).execute();
  };

  await table('notifications')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull()) // bill_due_soon | bill_overdue | payment_confirmed | accountant_sent | system
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'bigint')
    .addColumn('data', 'text') // JSON document, e.g. {"billId":"12", ...}
    // "Once per bill": the same key is never inserted twice for a user (ON CONFLICT DO NOTHING).
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('notifications_dedupe_uidx', 'notifications', ['account_id', 'user_id', 'dedupe_key'], true);
  // The caller's list, newest first; the unreadOnly and type filters; the unread count.
  await index('notifications_user_idx', 'notifications', ['account_id', 'user_id', 'created_at']);
  await index('notifications_user_read_idx', 'notifications', ['account_id', 'user_id', 'read', 'created_at']);
  await index('notifications_user_type_idx', 'notifications', ['account_id', 'user_id', 'type', 'created_at']);

  // No row: every alert on, daysBeforeDue 3.
  await table('notification_preferences')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bill_due_soon', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('bill_overdue', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('payment_confirmed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('accountant_sent', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('days_before_due', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index(
    'notification_preferences_account_user_uidx',
    'notification_preferences',
    ['account_id', 'user_id'],
    true,
  );

  await table('accountant_settings')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('auto_send', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('send_day', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('include_transactions', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('include_bills', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('include_expenses', 'integer', (c) => c.notNull().defaultTo(1))
    // 'YYYY-MM' of the last report sent automatically: claimed with a conditional UPDATE before sending.
    .addColumn('last_auto_sent_month', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('accountant_settings_account_uidx', 'accountant_settings', ['account_id'], true);
  // The daily job's look-up of accounts with automatic sending on.
  await index('accountant_settings_auto_idx', 'accountant_settings', ['auto_send', 'last_auto_sent_month']);

  // One row per job and UTC day, inserted with ON CONFLICT DO NOTHING: whoever inserts it runs the job.
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull()) // 'YYYY-MM-DD' (UTC)
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('summary', 'text') // JSON of the run's counts, or the error
    .addPrimaryKeyConstraint('job_runs_pk', ['name', 'day'])
    .execute();
}

export const migration0004: PortableMigration = { up };
