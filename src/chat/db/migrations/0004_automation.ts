import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import { createOutgoingEmailsTable } from '../../../core/mail/outgoing-emails.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Automation rules, the log of their runs, and the outgoing e-mail queue (their `send_email`). */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('automation_rules'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The engine's lookup (the rules of an account for an event) and the account's list.
  await db.schema
    .createIndex('automation_rules_account_event_idx')
    .on('automation_rules')
    .columns(['account_id', 'event_name'])
    .execute();

  await withId(db.schema.createTable('automation_rule_runs'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('rule_id', 'bigint', (c) => c.notNull().references('automation_rules.id').onDelete('cascade'))
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint')
    .addColumn('conversation_display_id', 'integer')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('actions_applied', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The runs of one rule, newest first.
  await db.schema
    .createIndex('automation_rule_runs_rule_idx')
    .on('automation_rule_runs')
    .columns(['account_id', 'rule_id', 'created_at'])
    .execute();

  await createOutgoingEmailsTable(db, dialect);
}

export const migration0004Automation: PortableMigration = { up };
