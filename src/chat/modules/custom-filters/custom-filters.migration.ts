import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** What a saved filter filters (Chatwoot's `report` has no filter here to validate it with). */
export const FILTER_TYPES = ['conversation', 'contact'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export interface CustomFiltersTable {
  id: Generated<number>;
  account_id: number;
  /** The user who saved it: nobody else sees it. */
  user_id: number;
  name: string;
  filter_type: FilterType;
  /** JSON `{payload: [criterion]}`, validated by the filter of `filter_type` when saved. */
  query: string;
  created_at: number;
  updated_at: number;
}
export type CustomFilter = Selectable<CustomFiltersTable>;

/**
 * A user's saved filters. (account_id, user_id, filter_type) serves the list (the user's filters in
 * the account, of one type or all), the lookup by id (with the owner check) and the count of the
 * per-user limit; (user_id) lets deleting a user find its filters without reading the whole table.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('custom_filters'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filter_type', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('custom_filters_account_user_type_idx')
    .on('custom_filters')
    .columns(['account_id', 'user_id', 'filter_type'])
    .execute();
  await db.schema.createIndex('custom_filters_user_idx').on('custom_filters').column('user_id').execute();
}

export const migration0080CustomFilters: PortableMigration = { up };
