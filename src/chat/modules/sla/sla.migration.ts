import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

export interface SlaPoliciesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  /** Seconds. */
  first_response_time_threshold: number;
  next_response_time_threshold: number | null;
  resolution_time_threshold: number | null;
  only_during_business_hours: number;
  created_at: number;
  updated_at: number;
}
export type SlaPolicy = Selectable<SlaPoliciesTable>;

export type AppliedSlaStatus = 'active' | 'hit' | 'missed';
export type BreachType = 'first_response' | 'next_response' | 'resolution';

/**
 * A policy applied to a conversation (one per conversation) with its deadlines (epoch ms) and the
 * facts that settle them. Inbox, team and assignee are copied for the list's filters and kept up
 * to date by the listener.
 */
export interface AppliedSlasTable {
  id: Generated<number>;
  account_id: number;
  sla_policy_id: number;
  conversation_id: number;
  contact_id: number;
  display_id: number;
  inbox_id: number;
  team_id: number | null;
  assignee_id: number | null;
  status: AppliedSlaStatus;
  conversation_created_at: number;
  first_response_due: number;
  first_response_at: number | null;
  /** The customer's oldest unanswered message after the first response, and its deadline. */
  waiting_since: number | null;
  next_response_due: number | null;
  resolution_due: number | null;
  resolved_at: number | null;
  /** The earliest deadline still to check (null: none); the scheduler's index. */
  next_check_at: number | null;
  created_at: number;
  updated_at: number;
}
export type AppliedSla = Selectable<AppliedSlasTable>;

/** One breach: a deadline of a type passed; unique per (applied SLA, type, deadline). */
export interface SlaEventsTable {
  id: Generated<number>;
  account_id: number;
  applied_sla_id: number;
  event_type: BreachType;
  due_at: number;
  created_at: number;
}
export type SlaEvent = Selectable<SlaEventsTable>;

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('sla_policies'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('first_response_time_threshold', 'integer', (c) => c.notNull())
    .addColumn('next_response_time_threshold', 'integer')
    .addColumn('resolution_time_threshold', 'integer')
    .addColumn('only_during_business_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sla_policies_account_idx').on('sla_policies').columns(['account_id', 'id']).execute();

  await withId(db.schema.createTable('applied_slas'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('sla_policy_id', 'bigint', (c) => c.notNull().references('sla_policies.id').onDelete('cascade'))
    .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('contact_id', 'bigint', (c) => c.notNull())
    .addColumn('display_id', 'integer', (c) => c.notNull())
    .addColumn('inbox_id', 'bigint', (c) => c.notNull())
    .addColumn('team_id', 'bigint')
    .addColumn('assignee_id', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('conversation_created_at', 'bigint', (c) => c.notNull())
    .addColumn('first_response_due', 'bigint', (c) => c.notNull())
    .addColumn('first_response_at', 'bigint')
    .addColumn('waiting_since', 'bigint')
    .addColumn('next_response_due', 'bigint')
    .addColumn('resolution_due', 'bigint')
    .addColumn('resolved_at', 'bigint')
    .addColumn('next_check_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('applied_slas_conversation_uidx')
    .on('applied_slas')
    .column('conversation_id')
    .unique()
    .execute();
  // The list and the metrics: an account's applied SLAs by time, by policy and status.
  // The list by time; the metrics read what they sum from this index alone.
  await db.schema
    .createIndex('applied_slas_account_idx')
    .on('applied_slas')
    .columns(['account_id', 'created_at', 'status', 'conversation_created_at', 'first_response_at', 'resolved_at'])
    .execute();
  await db.schema
    .createIndex('applied_slas_policy_idx')
    .on('applied_slas')
    .columns(['account_id', 'sla_policy_id', 'status'])
    .execute();
  await db.schema.createIndex('applied_slas_sla_policy_fk_idx').on('applied_slas').column('sla_policy_id').execute();
  // The scheduler's sweep over every account: deadlines due first.
  await db.schema.createIndex('applied_slas_check_idx').on('applied_slas').column('next_check_at').execute();

  await withId(db.schema.createTable('sla_events'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('applied_sla_id', 'bigint', (c) => c.notNull().references('applied_slas.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A deadline is breached once, whoever notices first (the scheduler on any instance, or an event).
  await db.schema
    .createIndex('sla_events_breach_uidx')
    .on('sla_events')
    .columns(['applied_sla_id', 'event_type', 'due_at'])
    .unique()
    .execute();
  await db.schema
    .createTable('sla_versions')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sla_events_account_idx')
    .on('sla_events')
    .columns(['account_id', 'event_type'])
    .execute();
}

/** A number every change to an account's applied SLAs raises: the metrics' cache key (applied-slas.reads.ts). */
export interface SlaVersionsTable {
  account_id: number;
  version: number;
}

/** Chatwoot's inbox working hours (JSON, seven days); null: the default (inboxes.schema.ts). */
async function upWorkingHours(db: UntypedDb): Promise<void> {
  await db.schema.alterTable('inboxes').addColumn('working_hours', 'text').execute();
}

export const migration0141Sla: PortableMigration = { up };
export const migration0142InboxWorkingHours: PortableMigration = { up: (db) => upWorkingHours(db) };
