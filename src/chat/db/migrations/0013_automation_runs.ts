import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * One subject-neutral log for the runs of both automation engines (decisions/0005, 0024):
 * `automation_runs` replaces `automation_rule_runs` here and `pipeline_automation_runs` in the
 * pipeline-automations module's 0131 (which also adds that kind's foreign key column).
 *
 * Numbered 0013 although core's own range (0001-0009) is the first decade: it needs 0004's table
 * and must run before 0131, and 0001-0009 are taken (decisions/0014: the migrator applies missing
 * migrations whatever their place).
 *
 * A rule run's subject is its conversation by display id, as the event that triggered it and the
 * runs API name it (and as the old table kept it, so the run keeps it after the conversation is
 * deleted). The old table had one time, taken when the run was recorded: it becomes both
 * `started_at` and `finished_at` (duration 0). Rows are copied oldest first, so new ids keep the
 * order of the old ones (ids change: the runs API lists them newest first by id).
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('automation_runs'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('automation_kind', 'text', (c) => c.notNull())
    .addColumn('automation_id', 'bigint', (c) => c.notNull())
    // The rule's id again, only for the cascade (a rule's runs go with it); null in other kinds' rows.
    .addColumn('rule_id', 'bigint', (c) => c.references('automation_rules.id').onDelete('cascade'))
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('error', 'text')
    .addColumn('event_id', 'bigint')
    .addColumn('dedupe_key', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();

  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('automation_runs').columns(columns).execute();
  // The runs of one automation newest first, and its stats (executions, stats, the rules' runs).
  await index('automation_runs_automation_idx', ['account_id', 'automation_kind', 'automation_id', 'id']);
  // The account's runs by outcome: the dashboard's totals and its latest failures.
  await index('automation_runs_status_idx', ['account_id', 'automation_kind', 'status', 'id']);
  // The account's runs since a time: the dashboard's executions today.
  await index('automation_runs_started_idx', ['account_id', 'automation_kind', 'started_at']);
  // The cascade from a deleted rule finds its runs.
  await index('automation_runs_rule_idx', ['rule_id']);
  // A scheduled check fires once per occasion (and two instances cannot both fire it).
  await db.schema
    .createIndex('automation_runs_dedupe_uidx')
    .on('automation_runs')
    .columns(['account_id', 'automation_kind', 'automation_id', 'subject_type', 'subject_id', 'dedupe_key'])
    .unique()
    .where(sql<boolean>`dedupe_key is not null`)
    .execute();

  await db
    .insertInto('automation_runs')
    .columns([
      'account_id',
      'automation_kind',
      'automation_id',
      'rule_id',
      'subject_type',
      'subject_id',
      'trigger',
      'status',
      'actions',
      'error',
      'event_id',
      'dedupe_key',
      'started_at',
      'finished_at',
      'duration_ms',
    ])
    .expression(
      db
        .selectFrom('automation_rule_runs')
        .select([
          'account_id',
          sql.lit('automation_rule').as('automation_kind'),
          'rule_id as automation_id',
          'rule_id',
          sql.lit('conversation').as('subject_type'),
          // The engine always knew the conversation; 0 stands for "unknown" should a row lack it.
          sql`coalesce(conversation_display_id, 0)`.as('subject_id'),
          'event_name as trigger',
          'outcome as status',
          'actions_applied as actions',
          'error',
          'event_id',
          sql.lit(null).as('dedupe_key'),
          'created_at as started_at',
          'created_at as finished_at',
          sql.lit(0).as('duration_ms'),
        ])
        .orderBy('created_at')
        .orderBy('id'),
    )
    .execute();
  await db.schema.dropTable('automation_rule_runs').execute();
}

export const migration0013AutomationRuns: PortableMigration = { up };
