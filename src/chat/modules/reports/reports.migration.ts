import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/** What a reporting event records (reports.listener.ts writes them as things happen). */
export type ReportingEventName =
  | 'conversation_created'
  | 'conversation_opened'
  | 'conversation_resolved'
  | 'first_response'
  | 'reply_time'
  | 'incoming_message'
  | 'outgoing_message';

/**
 * One fact for reports, with the conversation's inbox, team, assignee (or replying agent) as they
 * were at that moment. Ids of inboxes, teams and users are history: no foreign keys, so deleting
 * an inbox keeps the account's past figures.
 */
export interface ReportingEventsTable {
  id: Generated<number>;
  account_id: number;
  name: ReportingEventName;
  /** Seconds (first_response, reply_time, conversation_resolved); null for counted events. */
  value: number | null;
  /**
   * The same duration counted only within the inbox's working hours, in its time zone (migration
   * 0143); `value` when the inbox does not use working hours. Null for counted events.
   */
  value_in_business_hours: number | null;
  conversation_id: number | null;
  /** The conversation's per-account number, for Chatwoot's conversation_id field. */
  display_id: number | null;
  inbox_id: number | null;
  user_id: number | null;
  team_id: number | null;
  /** When what `value` measures started (epoch ms). */
  event_start: number;
  /** When it happened (epoch ms): the time reports group by. */
  event_end: number;
  created_at: number;
}
export type ReportingEvent = Selectable<ReportingEventsTable>;

/** The labels a conversation carried when one of its events was recorded (label reports). */
export interface ReportingEventLabelsTable {
  id: Generated<number>;
  account_id: number;
  event_id: number;
  label: string;
  name: ReportingEventName;
  /** The event's value, repeated so label reports read one table. */
  value: number | null;
  event_end: number;
}

/**
 * Counts and sums of reporting events per 15-minute bucket, for the account and for each inbox,
 * agent, team and label (`scope`: `account`, `inbox:<id>`, `user:<id>`, `team:<id>`, `label:<name>`),
 * written with each event: a summary over a month reads a few thousand of these rows, and only the
 * partial buckets at its edges from reporting_events.
 */
export interface ReportingRollupsTable {
  account_id: number;
  scope: string;
  name: ReportingEventName;
  /** The bucket's start (epoch ms, a multiple of 15 minutes). */
  bucket: number;
  count: number;
  total: number;
}

/** What the listener remembers of a conversation between events: the wait and the first reply. */
export interface ReportingConversationsTable {
  conversation_id: number;
  account_id: number;
  created_at: number;
  /** When the customer's oldest unanswered message arrived; null when nobody waits. */
  waiting_since: number | null;
  first_response_at: number | null;
}

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('reporting_events'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('conversation_id', 'bigint', (c) => c.references('conversations.id').onDelete('cascade'))
    .addColumn('display_id', 'integer')
    .addColumn('inbox_id', 'bigint')
    .addColumn('user_id', 'bigint')
    .addColumn('team_id', 'bigint')
    .addColumn('event_start', 'bigint', (c) => c.notNull())
    .addColumn('event_end', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Each report reads one name over a time range, for the account or one inbox, agent or team;
  // `value` ends each index so that counts and sums are read from the index alone.
  for (const [index, columns] of [
    ['reporting_events_account_idx', ['account_id', 'name', 'event_end', 'value']],
    ['reporting_events_inbox_idx', ['account_id', 'inbox_id', 'name', 'event_end', 'value']],
    ['reporting_events_user_idx', ['account_id', 'user_id', 'name', 'event_end', 'value']],
    ['reporting_events_team_idx', ['account_id', 'team_id', 'name', 'event_end', 'value']],
    ['reporting_events_conversation_idx', ['conversation_id']],
  ] as const) {
    await db.schema
      .createIndex(index)
      .on('reporting_events')
      .columns([...columns])
      .execute();
  }

  await withId(db.schema.createTable('reporting_event_labels'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('reporting_events.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('event_end', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reporting_event_labels_label_idx')
    .on('reporting_event_labels')
    .columns(['account_id', 'label', 'name', 'event_end', 'value'])
    .execute();
  await db.schema
    .createIndex('reporting_event_labels_event_idx')
    .on('reporting_event_labels')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('reporting_rollups')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('total', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('reporting_rollups_pk', ['account_id', 'scope', 'name', 'bucket'])
    .execute();

  await db.schema
    .createTable('reporting_conversations')
    .addColumn('conversation_id', 'bigint', (c) => c.primaryKey().references('conversations.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('waiting_since', 'bigint')
    .addColumn('first_response_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('reporting_conversations_account_idx')
    .on('reporting_conversations')
    .column('account_id')
    .execute();
}

export const migration0140ReportingEvents: PortableMigration = { up };

/**
 * `value_in_business_hours` on reporting events, computed when each event is written (reports
 * never recompute it); rows written before it get their wall-clock `value`.
 */
async function upBusinessHours(db: UntypedDb): Promise<void> {
  await db.schema.alterTable('reporting_events').addColumn('value_in_business_hours', 'double precision').execute();
  await db
    .updateTable('reporting_events')
    .set((eb) => ({ value_in_business_hours: eb.ref('value') }))
    .where('value', 'is not', null)
    .execute();
}

export const migration0143ReportingBusinessHours: PortableMigration = { up: (db) => upBusinessHours(db) };
