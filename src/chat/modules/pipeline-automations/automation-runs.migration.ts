import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Pipeline automation runs move into the shared `automation_runs` (core 0013_automation_runs,
 * decisions/0024). `pipeline_automation_id` repeats the automation's id in a column that references
 * it, so the runs still go with their automation (deleted, or with its pipeline); rows of other
 * kinds leave it null. Rows are copied in id order (new ids, same order) and the old table dropped.
 */
async function up(db: UntypedDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('automation_runs')
    .addColumn('pipeline_automation_id', 'bigint', (c) => c.references('pipeline_automations.id').onDelete('cascade'))
    .execute();
  // The cascade from a deleted automation finds its runs.
  await db.schema
    .createIndex('automation_runs_pipeline_automation_idx')
    .on('automation_runs')
    .column('pipeline_automation_id')
    .execute();

  await db
    .insertInto('automation_runs')
    .columns([
      'account_id',
      'automation_kind',
      'automation_id',
      'pipeline_automation_id',
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
        .selectFrom('pipeline_automation_runs')
        .select([
          'account_id',
          sql.lit('pipeline_automation').as('automation_kind'),
          'automation_id',
          'automation_id as pipeline_automation_id',
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
        .orderBy('id'),
    )
    .execute();
  await db.schema.dropTable('pipeline_automation_runs').execute();
}

export const migration0131PipelineAutomationRuns: PortableMigration = { up };
