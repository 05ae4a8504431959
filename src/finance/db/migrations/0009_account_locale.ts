import type { Kysely } from 'kysely';
import type { PortableMigration } from '../../../core/db/migrator.js';

/**
 * The account's language (`en` | `pt-BR`): what the service writes for the account without a
 * request to take it from (the accountant report e-mail, notifications). Existing accounts keep
 * English.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();
}

export const migration0009AccountLocale: PortableMigration = { up };
