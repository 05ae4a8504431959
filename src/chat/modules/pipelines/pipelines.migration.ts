import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The sales pipeline: pipelines, their stages, cards (deals), each card's timeline and attachments.
 * Every table has its own `account_id` and every list index leads with it.
 *
 * The card indexes are partial (`deleted_at is null`): discarded cards never slow the board. Each
 * also carries `deleted_at` as its last column, so that SQLite reads it from the index (a partial
 * index whose condition column is not in it cannot cover a query). The list walks stages in order
 * and reads each stage's page by (stage, position), so a page costs the same whatever the number of
 * cards. Counts and value totals per stage come from `pipeline_stage_counts`, one row per stage,
 * status and currency, kept in the transaction of every change of a card: a grouped query over a
 * few rows per stage, never over the cards.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const live = sql<boolean>`deleted_at is null`;

  await withId(db.schema.createTable('pipelines'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pipelines_account_idx').on('pipelines').columns(['account_id', 'id']).execute();

  await withId(db.schema.createTable('pipeline_stages'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'bigint', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A stage id is unique in its account (it starts with its pipeline's id); the lookup by it.
  await db.schema
    .createIndex('pipeline_stages_key_uidx')
    .on('pipeline_stages')
    .columns(['account_id', 'key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('pipeline_stages_pipeline_idx')
    .on('pipeline_stages')
    .columns(['account_id', 'pipeline_id', 'position'])
    .execute();

  await withId(db.schema.createTable('pipeline_cards'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'bigint', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    // No cascade from stages: removing a stage moves its cards first (the service does it).
    .addColumn('stage_id', 'bigint', (c) => c.notNull().references('pipeline_stages.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('item_title', 'text')
    .addColumn('value_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('stage_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('stage_entered_at', 'bigint', (c) => c.notNull())
    .addColumn('contact_id', 'bigint', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('conversation_id', 'bigint', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expected_close_date', 'text')
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('qualification_checklist', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('lead_score', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lead_score_overridden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('won_note', 'text')
    .addColumn('lost_reason', 'text')
    .addColumn('closed_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  const cardIndex = (name: string, columns: string[]) =>
    db.schema
      .createIndex(name)
      .on('pipeline_cards')
      .columns([...columns, 'deleted_at'])
      .where(live)
      .execute();
  // A stage's cards in board order: the list's pages, reorder, the next position in a stage.
  await cardIndex('pipeline_cards_stage_idx', ['account_id', 'stage_id', 'position', 'id']);
  // The list filtered by pipeline (with owner, contact or a search): counts per stage from the index.
  await cardIndex('pipeline_cards_pipeline_idx', ['account_id', 'pipeline_id', 'stage_id', 'status']);
  // The list filtered by status, owner or contact: counts per stage, then each stage's page in order.
  await cardIndex('pipeline_cards_status_idx', ['account_id', 'status', 'stage_id', 'position']);
  await cardIndex('pipeline_cards_owner_idx', ['account_id', 'owner_id', 'stage_id', 'position']);
  await cardIndex('pipeline_cards_contact_idx', ['account_id', 'contact_id', 'stage_id', 'position']);
  // The cards of a conversation (lead scoring and automations follow conversation events to cards).
  await cardIndex('pipeline_cards_conversation_idx', ['account_id', 'conversation_id']);
  // The discarded cards (data protection), newest first.
  await db.schema
    .createIndex('pipeline_cards_discarded_idx')
    .on('pipeline_cards')
    .columns(['account_id', 'deleted_at', 'id'])
    .where(sql<boolean>`deleted_at is not null`)
    .execute();

  // Live cards per stage, status and currency, with their value summed in two parts (value div 1e6
  // and value mod 1e6) so no sum can overflow 64 bits however many cards there are.
  await withId(db.schema.createTable('pipeline_stage_counts'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'bigint', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('stage_id', 'bigint', (c) => c.notNull().references('pipeline_stages.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cards', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('value_high', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('value_low', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('pipeline_stage_counts_uidx')
    .on('pipeline_stage_counts')
    .columns(['stage_id', 'status', 'currency'])
    .unique()
    .execute();
  await db.schema
    .createIndex('pipeline_stage_counts_pipeline_idx')
    .on('pipeline_stage_counts')
    .columns(['account_id', 'pipeline_id', 'stage_id', 'status'])
    .execute();

  await withId(db.schema.createTable('pipeline_card_timeline'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('card_id', 'bigint', (c) => c.notNull().references('pipeline_cards.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('performer_type', 'text', (c) => c.notNull())
    .addColumn('performer_id', 'bigint')
    .addColumn('performer_name', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A card's entries, newest first.
  await db.schema
    .createIndex('pipeline_card_timeline_card_idx')
    .on('pipeline_card_timeline')
    .columns(['account_id', 'card_id', 'id'])
    .execute();

  await withId(db.schema.createTable('pipeline_card_attachments'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('card_id', 'bigint', (c) => c.notNull().references('pipeline_cards.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('extension', 'text')
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipeline_card_attachments_card_idx')
    .on('pipeline_card_attachments')
    .columns(['account_id', 'card_id', 'id'])
    .execute();
  // The public file route finds a file by its key alone (the key is the credential).
  await db.schema
    .createIndex('pipeline_card_attachments_key_uidx')
    .on('pipeline_card_attachments')
    .columns(['storage_key'])
    .unique()
    .execute();
}

export const migration0020Pipelines: PortableMigration = { up };

/**
 * Why a card was discarded (`DELETE {A}/pipeline/cards/{id} {reason}`, NooviChat's MCP): kept while
 * the card is discarded, cleared on restore. No index: it is shown, never filtered on.
 */
export const migration0150CardDeletedReason: PortableMigration = {
  up: async (db) => {
    await db.schema.alterTable('pipeline_cards').addColumn('deleted_reason', 'text').execute();
  },
};
