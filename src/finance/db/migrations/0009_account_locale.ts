import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The account's language (`en` | `pt-BR`): what the service writes for the account without a
 * request to take it from (the accountant report e-mail, notifications). Existing accounts keep
 * English.
 */
async function up(db: UntypedDb): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();
}

export const migration0009AccountLocale: PortableMigration = { up };
