import { sql, type Generated, type Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

export interface CannedResponsesTable {
  id: Generated<number>;
  account_id: number;
  /** Unique in the account regardless of case; no whitespace. */
  short_code: string;
  content: string;
  created_at: number;
  updated_at: number;
}
export type CannedResponse = Selectable<CannedResponsesTable>;

/**
 * Canned responses. One index serves them all: (account_id, lower(short_code)) is the
 * case-insensitive uniqueness of short codes within an account, the alphabetical list, and the
 * account scope of the `search` (a substring match cannot use a b-tree, so the search reads only the
 * account's own rows through this index and filters them).
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('canned_responses'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('short_code', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create unique index canned_responses_account_short_code_uidx on canned_responses (account_id, lower(short_code))`.execute(
    db,
  );
}

export const migration0040CannedResponses: PortableMigration = { up };
