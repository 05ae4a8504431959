import type { ColumnDefinitionBuilder } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The finance data: transactions, bills (payable), invoices (receivable) and contracts, plus the
 * account's finance webhooks. Money is integer cents (`bigint`), calendar dates are 'YYYY-MM-DD'
 * text (sortable), timestamps epoch milliseconds. Every index leads with account_id and serves a
 * list filter (status, period on the date column, kind, category); the (status, date) indexes
 * serve the daily job that scans open bills and issued invoices across accounts.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const table = (name: string) => withId(db.schema.createTable(name), dialect);
  const index = (name: string, on: string, columns: string[]) =>
    db.schema.createIndex(name).on(on).columns(columns).execute();
  const account = (c: ColumnDefinitionBuilder) => c.notNull().references('accounts.id').onDelete('cascade');

  await table('transactions')
    .addColumn('account_id', 'bigint', account)
    .addColumn('kind', 'text', (c) => c.notNull()) // income | expense
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('BRL'))
    .addColumn('date', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('category', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull()) // pending | completed | cancelled
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('transactions_account_date_idx', 'transactions', ['account_id', 'date', 'id']);
  await index('transactions_account_status_idx', 'transactions', ['account_id', 'status', 'date']);
  await index('transactions_account_kind_idx', 'transactions', ['account_id', 'kind', 'date']);
  await index('transactions_account_category_idx', 'transactions', ['account_id', 'category', 'date']);

  await table('bills')
    .addColumn('account_id', 'bigint', account)
    .addColumn('supplier', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('BRL'))
    .addColumn('due_date', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('status', 'text', (c) => c.notNull()) // open | paid | cancelled
    .addColumn('paid_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('bills_account_due_idx', 'bills', ['account_id', 'due_date', 'id']);
  await index('bills_account_status_idx', 'bills', ['account_id', 'status', 'due_date']);
  await index('bills_status_due_idx', 'bills', ['status', 'due_date']);

  await table('invoices')
    .addColumn('account_id', 'bigint', account)
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('BRL'))
    .addColumn('due_date', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('status', 'text', (c) => c.notNull()) // draft | issued | paid | overdue | cancelled
    .addColumn('issued_at', 'bigint')
    .addColumn('paid_at', 'bigint')
    .addColumn('overdue_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('invoices_account_due_idx', 'invoices', ['account_id', 'due_date', 'id']);
  await index('invoices_account_status_idx', 'invoices', ['account_id', 'status', 'due_date']);
  await index('invoices_status_due_idx', 'invoices', ['status', 'due_date']);

  await table('contracts')
    .addColumn('account_id', 'bigint', account)
    .addColumn('party', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('value_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('BRL'))
    .addColumn('start_date', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('end_date', 'text') // YYYY-MM-DD or null (open-ended)
    .addColumn('status', 'text', (c) => c.notNull()) // active | cancelled
    .addColumn('cancelled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('contracts_account_start_idx', 'contracts', ['account_id', 'start_date', 'id']);
  await index('contracts_account_status_idx', 'contracts', ['account_id', 'status', 'start_date']);

  // Finance webhooks: `events` is a JSON array of event names; `secret` signs deliveries.
  await table('webhooks')
    .addColumn('account_id', 'bigint', account)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('webhooks_account_idx', 'webhooks', ['account_id', 'id']);
}

export const migration0003: PortableMigration = { up };
