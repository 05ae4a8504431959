import { sql } from 'kysely';
import { createCountTriggers } from '../../../core/db/count-triggers.js';
import type { DialectName } from '../../../core/db/database.js';
import { jsonPathText } from '../../../core/db/json-text.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * What pipeline analytics read (decisions/0029; deal-figures.repository.ts), so that no report walks every card:
 *
 * 0151: the facts of each timeline entry as columns: the pipeline and owner of the card after the
 * entry's change, the stage a `created` or `stage_change` entry entered, the value and currency a
 * deal closed with, the reason it was lost. Indexed by type and time (won and lost deals of a
 * period) and by stage and time (cards that entered a stage in a period). Entries written before
 * the migration are filled from their JSON and their card as it is now.
 */
async function upTimelineFacts(db: UntypedDb, dialect: DialectName): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  for (const [name, type] of [
    ['pipeline_id', 'bigint'],
    ['stage_id', 'bigint'],
    ['owner_id', 'bigint'],
    ['value_minor', 'bigint'],
    ['currency', 'text'],
    ['reason', 'text'],
  ] as const)
    await db.schema.alterTable('pipeline_card_timeline').addColumn(name, type).execute();

  const entered = (key: readonly string[]) => sql`(select s.id from pipeline_stages s
      where s.account_id = pipeline_card_timeline.account_id and s.key = ${jsonPathText(dialect, 'data', key)})`;
  await sql`update pipeline_card_timeline set stage_id = ${entered(['stage', 'id'])} where type = 'created'`.execute(
    db,
  );
  await sql`update pipeline_card_timeline set stage_id = ${entered(['to_stage', 'id'])} where type = 'stage_change'`.execute(
    db,
  );
  const card = (column: string) => sql`(select ${sql.ref(`c.${column}`)} from pipeline_cards c
      where c.account_id = pipeline_card_timeline.account_id and c.id = pipeline_card_timeline.card_id)`;
  await sql`update pipeline_card_timeline set pipeline_id = coalesce(
      (select s.pipeline_id from pipeline_stages s where s.id = pipeline_card_timeline.stage_id), ${card('pipeline_id')}),
    owner_id = ${card('owner_id')}`.execute(db);
  await sql`update pipeline_card_timeline set value_minor = ${card('value_minor')}, currency = ${card('currency')}
    where type in ('deal_won', 'deal_lost')`.execute(db);
  await sql`update pipeline_card_timeline set reason = ${jsonPathText(dialect, 'data', ['lost_reason'])}
    where type = 'deal_lost'`.execute(db);

  await db.schema
    .createIndex('pipeline_card_timeline_type_idx')
    .on('pipeline_card_timeline')
    .columns(['account_id', 'type', 'created_at'])
    .execute();
  await db.schema
    .createIndex('pipeline_card_timeline_stage_idx')
    .on('pipeline_card_timeline')
    .columns(['account_id', 'stage_id', 'created_at'])
    .where(sql<boolean>`stage_id is not null`)
    .execute();
}

/**
 * 0152: live cards per pipeline, owner (0 for none), status and currency, with their value summed in
 * two parts as the stage counts do (value div 1e6 and mod 1e6). Kept by triggers on pipeline_cards,
 * so every writer keeps it right, the owner set to NULL by a deleted user included: the team
 * pipeline reads a few rows per owner instead of every open card.
 */
async function upOwnerCounts(db: UntypedDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('pipeline_owner_counts')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'bigint', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('owner_key', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cards', 'bigint', (c) => c.notNull())
    .addColumn('value_high', 'bigint', (c) => c.notNull())
    .addColumn('value_low', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pipeline_owner_counts_pk', [
      'account_id',
      'pipeline_id',
      'owner_key',
      'status',
      'currency',
    ])
    .execute();
  const bucket = (row: 'NEW' | 'OLD') =>
    `account_id = ${row}.account_id and pipeline_id = ${row}.pipeline_id and owner_key = coalesce(${row}.owner_id, 0)
     and status = ${row}.status and currency = ${row}.currency`;
  await createCountTriggers(db, dialect, {
    name: 'pipeline_owner_counts',
    table: 'pipeline_cards',
    increment: `insert into pipeline_owner_counts
        (account_id, pipeline_id, owner_key, status, currency, cards, value_high, value_low)
      select NEW.account_id, NEW.pipeline_id, coalesce(NEW.owner_id, 0), NEW.status, NEW.currency, 1,
        NEW.value_minor / 1000000, NEW.value_minor % 1000000
      where NEW.deleted_at is null
      on conflict (account_id, pipeline_id, owner_key, status, currency) do update set
        cards = pipeline_owner_counts.cards + 1,
        value_high = pipeline_owner_counts.value_high + excluded.value_high,
        value_low = pipeline_owner_counts.value_low + excluded.value_low`,
    decrement: `update pipeline_owner_counts set cards = cards - 1,
        value_high = value_high - OLD.value_minor / 1000000, value_low = value_low - OLD.value_minor % 1000000
      where OLD.deleted_at is null and ${bucket('OLD')}`,
    moved: `OLD.owner_id is distinct from NEW.owner_id or OLD.pipeline_id <> NEW.pipeline_id
      or OLD.status <> NEW.status or OLD.currency <> NEW.currency or OLD.value_minor <> NEW.value_minor
      or OLD.deleted_at is distinct from NEW.deleted_at`,
    updateOf: ['owner_id', 'pipeline_id', 'status', 'currency', 'value_minor', 'deleted_at'],
  });
  await sql`insert into pipeline_owner_counts
      (account_id, pipeline_id, owner_key, status, currency, cards, value_high, value_low)
    select account_id, pipeline_id, coalesce(owner_id, 0), status, currency, count(*),
      sum(value_minor / 1000000), sum(value_minor % 1000000)
    from pipeline_cards where deleted_at is null
    group by account_id, pipeline_id, coalesce(owner_id, 0), status, currency`.execute(db);
}

export const migration0151TimelineFacts: PortableMigration = { up: upTimelineFacts };
export const migration0152OwnerCounts: PortableMigration = { up: upOwnerCounts };
