import type { DialectName } from '../../core/db/database.js';
import type { PortableMigration } from '../../core/db/migrator.js';
import { withId } from '../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/** Sign-in sessions of devise-token clients (sessions.ts). */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('user_sessions'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sessions_client_uidx').on('user_sessions').column('client').unique().execute();
  await db.schema
    .createIndex('user_sessions_user_idx')
    .on('user_sessions')
    .columns(['user_id', 'created_at'])
    .execute();
}

export const migration0012UserSessions: PortableMigration = { up };
