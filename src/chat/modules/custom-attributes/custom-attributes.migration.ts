import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** Chatwoot's display types, in the order of its numbers (text 0 ... checkbox 7). */
export const DISPLAY_TYPES = ['text', 'number', 'currency', 'percent', 'link', 'date', 'list', 'checkbox'] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];

/** Chatwoot's models, in the order of their numbers (conversation_attribute 0, contact_attribute 1). */
export const ATTRIBUTE_MODELS = ['conversation_attribute', 'contact_attribute'] as const;
export type AttributeModel = (typeof ATTRIBUTE_MODELS)[number];

export interface CustomAttributeDefinitionsTable {
  id: Generated<number>;
  account_id: number;
  attribute_model: AttributeModel;
  /** snake_case; unique in the account and model; never changes. */
  attribute_key: string;
  attribute_display_name: string;
  attribute_display_type: DisplayType;
  attribute_description: string | null;
  /** JSON array of strings: the choices of a `list` (empty for the other types). */
  attribute_values: string;
  regex_pattern: string | null;
  regex_cue: string | null;
  /** JSON scalar (string, number or boolean), or null. */
  default_value: string | null;
  created_at: number;
  updated_at: number;
}
export type CustomAttributeDefinition = Selectable<CustomAttributeDefinitionsTable>;

/**
 * Custom attribute definitions. One index serves them all: (account_id, attribute_model,
 * attribute_key) is the uniqueness of a key per account and model, the account's list (whole, or
 * of one model with `?attribute_model=`), and the lookup of the keys a filter request names.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('custom_attribute_definitions'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('attribute_model', 'text', (c) => c.notNull())
    .addColumn('attribute_key', 'text', (c) => c.notNull())
    .addColumn('attribute_display_name', 'text', (c) => c.notNull())
    .addColumn('attribute_display_type', 'text', (c) => c.notNull())
    .addColumn('attribute_description', 'text')
    .addColumn('attribute_values', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('regex_pattern', 'text')
    .addColumn('regex_cue', 'text')
    .addColumn('default_value', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('custom_attribute_definitions_account_model_key_uidx')
    .on('custom_attribute_definitions')
    .columns(['account_id', 'attribute_model', 'attribute_key'])
    .unique()
    .execute();
}

export const migration0081CustomAttributeDefinitions: PortableMigration = { up };
