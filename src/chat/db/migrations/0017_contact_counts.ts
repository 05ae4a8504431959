import { sql } from 'kysely';
import { createCountTriggers } from '../../../core/db/count-triggers.js';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * How many contacts each account has, kept by triggers on `contacts` (as 0016 does for
 * conversations): the unfiltered contact list answers its `count` from one row instead of
 * counting every contact of the account.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('contact_counts')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('count', 'bigint', (c) => c.notNull())
    .execute();

  const increment = `insert into contact_counts (account_id, count) values (NEW.account_id, 1)
    on conflict (account_id) do update set count = contact_counts.count + 1`;
  const decrement = `update contact_counts set count = count - 1 where account_id = OLD.account_id`;
  await createCountTriggers(db, dialect, {
    name: 'contact_counts',
    table: 'contacts',
    increment,
    decrement,
    moved: 'OLD.account_id <> NEW.account_id',
    updateOf: ['account_id'],
  });
  await sql
    .raw(`insert into contact_counts (account_id, count) select account_id, count(*) from contacts group by account_id`)
    .execute(db);
}

export const migration0017ContactCounts: PortableMigration = { up };
