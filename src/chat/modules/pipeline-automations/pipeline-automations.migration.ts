import type { ColumnDefinitionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Pipeline automations (docs/spec/decisions.md §9): the automations, their runs and their audit log. Each
 * table has its own `account_id` and its indexes lead with it. Runs go with their automation; the
 * audit log stays after it is deleted (no key on the automation).
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const account = (c: ColumnDefinitionBuilder) => c.notNull().references('accounts.id').onDelete('cascade');

  await withId(db.schema.createTable('pipeline_automations'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('pipeline_id', 'bigint', (c) => c.references('pipelines.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('trigger_config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('executions_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_executed_at', 'bigint')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('round_robin_cursor', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipeline_automations_trigger_idx')
    .on('pipeline_automations')
    .columns(['account_id', 'trigger', 'is_active', 'id'])
    .execute();

  await withId(db.schema.createTable('pipeline_automation_runs'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('automation_id', 'bigint', (c) => c.notNull().references('pipeline_automations.id').onDelete('cascade'))
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
  await db.schema
    .createIndex('pipeline_automation_runs_automation_idx')
    .on('pipeline_automation_runs')
    .columns(['account_id', 'automation_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pipeline_automation_runs_started_idx')
    .on('pipeline_automation_runs')
    .columns(['account_id', 'started_at'])
    .execute();
  // A scheduled check fires once per occasion (and two instances cannot both fire it).
  await db.schema
    .createIndex('pipeline_automation_runs_dedupe_uidx')
    .on('pipeline_automation_runs')
    .columns(['account_id', 'automation_id', 'subject_type', 'subject_id', 'dedupe_key'])
    .unique()
    .where(sql<boolean>`dedupe_key is not null`)
    .execute();

  await withId(db.schema.createTable('pipeline_automation_audit_logs'), dialect)
    .addColumn('account_id', 'bigint', account)
    .addColumn('automation_id', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('user_name', 'text')
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipeline_automation_audit_logs_idx')
    .on('pipeline_automation_audit_logs')
    .columns(['account_id', 'automation_id', 'id'])
    .execute();
}

export const migration0130PipelineAutomations: PortableMigration = { up };
