import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Indexes for the contact list's orders. The default order is last activity, newest first, with
 * never-active contacts (null) last: PostgreSQL can only walk an index in that order when the
 * index itself says `desc nulls last` (SQLite already sorts nulls first ascending, so walking
 * contacts_account_activity_idx backwards gives it). `created_at` is a documented sort key.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create index contacts_account_activity_nl_idx on contacts (account_id, last_activity_at desc nulls last, id desc)`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('contacts_account_created_idx')
    .on('contacts')
    .columns(['account_id', 'created_at'])
    .execute();
}

export const migration0002Contacts: PortableMigration = { up };
