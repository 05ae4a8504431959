import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The account's label catalogue (Chatwoot's `labels`): a title unique in the account, with a
 * description, a color and whether the dashboard shows it in its sidebar. Contacts and
 * conversations keep carrying labels as strings (taggings); a label here describes one of them.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('labels'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#1f93ff'))
    .addColumn('show_on_sidebar', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The account's list (by title) and the uniqueness of a title in the account.
  await db.schema
    .createIndex('labels_account_title_uidx')
    .on('labels')
    .columns(['account_id', 'title'])
    .unique()
    .execute();
}

export const migration0010Labels: PortableMigration = { up };
