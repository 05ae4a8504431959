import type { ColumnDefinitionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Lead scoring: rules, the events that reached each card (what a score is recomputed from), the
 * rules applied to each card, the change log, and bulk recalculation runs. Every table has its own
 * `account_id` and its indexes lead with it. Events, applications and logs go with their card
 * (permanent deletion); logs keep their rule's id and name after the rule is deleted (no key).
 *
 * One index is added to the pipeline's cards: live cards by score, for the distribution (counts per
 * band, median by offset) and top leads, so reports never read every card.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const account = (c: ColumnDefinitionBuilder) => c.notNull().references('accounts.id').onDelete('cascade');
  const card = (c: ColumnDefinitionBuilder) => c.notNull().references('pipeline_cards.id').onDelete('cascade');

  await withId(db.schema.createTable('lead_score_rules'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_subtype', 'text')
    .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cooldown_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lead_score_rules_event_idx')
    .on('lead_score_rules')
    .columns(['account_id', 'event_type', 'priority', 'id'])
    .execute();
  await db.schema
    .createIndex('lead_score_rules_default_uidx')
    .on('lead_score_rules')
    .columns(['account_id', 'default_key'])
    .unique()
    .where(sql<boolean>`default_key is not null`)
    .execute();

  await withId(db.schema.createTable('lead_score_events'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('card_id', 'bigint', card)
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_subtype', 'text')
    .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('contact_id', 'bigint')
    .addColumn('conversation_id', 'bigint')
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // An event delivered twice reaches a card once.
  await db.schema
    .createIndex('lead_score_events_key_uidx')
    .on('lead_score_events')
    .columns(['card_id', 'event_key'])
    .unique()
    .execute();
  // Replay of a card's events in time order (recalculation).
  await db.schema
    .createIndex('lead_score_events_card_idx')
    .on('lead_score_events')
    .columns(['account_id', 'card_id', 'occurred_at', 'id'])
    .execute();

  await withId(db.schema.createTable('lead_score_applications'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('card_id', 'bigint', card)
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('lead_score_events.id').onDelete('cascade'))
    .addColumn('rule_id', 'bigint', (c) => c.notNull())
    .addColumn('rule_name', 'text', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .execute();
  // A card's sum and factors; a rule's last application on a card (cooldowns).
  await db.schema
    .createIndex('lead_score_applications_card_idx')
    .on('lead_score_applications')
    .columns(['account_id', 'card_id', 'rule_id', 'applied_at'])
    .execute();
  await db.schema
    .createIndex('lead_score_applications_event_idx')
    .on('lead_score_applications')
    .columns(['event_id'])
    .execute();

  await withId(db.schema.createTable('lead_score_logs'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('card_id', 'bigint', card)
    .addColumn('contact_id', 'bigint')
    .addColumn('rule_id', 'bigint')
    .addColumn('rule_name', 'text')
    .addColumn('event_type', 'text')
    .addColumn('event_subtype', 'text')
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('old_score', 'integer', (c) => c.notNull())
    .addColumn('new_score', 'integer', (c) => c.notNull())
    .addColumn('old_category', 'text', (c) => c.notNull())
    .addColumn('new_category', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  for (const [name, columns] of [
    ['lead_score_logs_account_idx', ['account_id', 'created_at', 'id']],
    ['lead_score_logs_card_idx', ['account_id', 'card_id', 'id']],
    ['lead_score_logs_contact_idx', ['account_id', 'contact_id', 'id']],
    ['lead_score_logs_rule_idx', ['account_id', 'rule_id', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('lead_score_logs')
      .columns([...columns])
      .execute();
  }

  await withId(db.schema.createTable('lead_score_bulk_jobs'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_card_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('lead_score_bulk_jobs_account_idx')
    .on('lead_score_bulk_jobs')
    .columns(['account_id', 'id'])
    .execute();

  // Live cards by status and score (distribution, median, top leads); deleted_at last so SQLite covers from it.
  await db.schema
    .createIndex('pipeline_cards_lead_score_idx')
    .on('pipeline_cards')
    .columns(['account_id', 'status', 'lead_score', 'pipeline_id', 'deleted_at'])
    .where(sql<boolean>`deleted_at is null`)
    .execute();
}

export const migration0100LeadScoring: PortableMigration = { up };
