import type { DialectName } from '../db/database.js';
import type { UntypedDb } from '../db/untyped.js';

/** Creates the outgoing e-mail queue and log; each service's migrations call it. */
export async function createOutgoingEmailsTable(db: UntypedDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('outgoing_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint')
    .addColumn('source', 'text')
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The worker's claim: due pending e-mails, and expired leases of crashed workers.
  await db.schema
    .createIndex('outgoing_emails_due_idx')
    .on('outgoing_emails')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('outgoing_emails_lease_idx')
    .on('outgoing_emails')
    .columns(['status', 'locked_until'])
    .execute();
  // The e-mails of one account, newest first.
  await db.schema
    .createIndex('outgoing_emails_account_idx')
    .on('outgoing_emails')
    .columns(['account_id', 'created_at'])
    .execute();
}

/** Reply-To and attachments on queued e-mails (part of the backbone upgrade). */
export async function addEmailReplyToAndAttachments(db: UntypedDb): Promise<void> {
  await db.schema.alterTable('outgoing_emails').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('outgoing_emails').addColumn('attachments', 'text').execute();
}
