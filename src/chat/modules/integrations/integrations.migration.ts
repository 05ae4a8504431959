import { sql, type Generated, type Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

export interface IntegrationHooksTable {
  id: Generated<number>;
  account_id: number;
  /** An app of the catalogue (integrations.apps.ts), e.g. `openai`. */
  app_id: string;
  /** The inbox the hook serves, or null for the whole account. */
  inbox_id: number | null;
  /** 1 enabled, 0 disabled. */
  status: number;
  /** JSON object of the settings that are not secret (the app's non-secret fields). */
  settings: string;
  /**
   * The secret settings (`api_key`) as one JSON object sealed with AES-256-GCM
   * (core/security/encryption.ts), bound to the row's id; null when the app has none.
   */
  secrets: string | null;
  created_at: number;
  updated_at: number;
}
export type IntegrationHook = Selectable<IntegrationHooksTable>;

/**
 * Integration hooks. One unique index, (account_id, app_id, coalesce(inbox_id, 0)), holds the rule
 * "one hook per app and scope" (the account, or one inbox) and serves the account's list (it leads
 * with account_id). The inbox index serves the cascade when an inbox is deleted.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('integration_hooks'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('inbox_id', 'bigint', (c) => c.references('inboxes.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('secrets', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create unique index integration_hooks_scope_uidx on integration_hooks (account_id, app_id, coalesce(inbox_id, 0))`.execute(
    db,
  );
  await db.schema.createIndex('integration_hooks_inbox_idx').on('integration_hooks').column('inbox_id').execute();
}

export const migration0090IntegrationHooks: PortableMigration = { up };
