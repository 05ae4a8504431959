import type { Generated, Selectable } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

export type CampaignType = 'one_off' | 'ongoing';
/** Chatwoot's two values: `active` until a one-off campaign has been sent, then `completed`. */
export type CampaignStatus = 'active' | 'completed';
export type RecipientStatus = 'pending' | 'sent' | 'failed';

export interface CampaignsTable {
  id: Generated<number>;
  account_id: number;
  /** The per-account number paths and responses use (campaign_counters). */
  display_id: number;
  title: string;
  description: string | null;
  message: string;
  campaign_type: CampaignType;
  inbox_id: number;
  /** The agent the messages are sent as (the creating administrator unless set). */
  sender_id: number | null;
  enabled: number;
  campaign_status: CampaignStatus;
  /** One-off campaigns: when to send (epoch ms); null keeps the campaign unscheduled. */
  scheduled_at: number | null;
  /** JSON array of the audience's labels (normalized). */
  audience: string;
  /** JSON object {url, time_on_page} (ongoing campaigns). */
  trigger_rules: string;
  trigger_only_during_business_hours: number;
  /** Set once, by the one job that starts sending (the guard against sending twice). */
  sending_started_at: number | null;
  completed_at: number | null;
  /** The current link of the batch chain: only the batch job carrying this number may run. */
  send_batch: number;
  /** The number of recipients taken when sending started. */
  audience_count: number | null;
  created_at: number;
  updated_at: number;
}
export type Campaign = Selectable<CampaignsTable>;

export interface CampaignCountersTable {
  account_id: number;
  last_display_id: number;
}

/**
 * One row per contact a campaign is sent to: the progress of a one-off campaign (a batch marks its
 * rows in the transaction that sends their messages, so a crash resumes where it stopped and never
 * sends twice), and the contacts an ongoing campaign has already started a conversation with.
 */
export interface CampaignRecipientsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  contact_id: number;
  status: RecipientStatus;
  conversation_id: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** Campaigns, their per-account numbering, and their recipients. */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('campaign_counters')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('last_display_id', 'integer', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('campaigns'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('display_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('campaign_type', 'text', (c) => c.notNull())
    .addColumn('inbox_id', 'bigint', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('sender_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('campaign_status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('scheduled_at', 'bigint')
    .addColumn('audience', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('trigger_rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('trigger_only_during_business_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sending_started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('send_batch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audience_count', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Lookups by number, and the account's list in order.
  await db.schema
    .createIndex('campaigns_account_display_uidx')
    .on('campaigns')
    .columns(['account_id', 'display_id'])
    .unique()
    .execute();
  // The public list: an inbox's ongoing campaigns.
  await db.schema
    .createIndex('campaigns_account_inbox_type_idx')
    .on('campaigns')
    .columns(['account_id', 'inbox_id', 'campaign_type'])
    .execute();

  await withId(db.schema.createTable('campaign_recipients'), dialect)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('contact_id', 'bigint', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'bigint', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A contact is a campaign's recipient once.
  await db.schema
    .createIndex('campaign_recipients_contact_uidx')
    .on('campaign_recipients')
    .columns(['campaign_id', 'contact_id'])
    .unique()
    .execute();
  // The next batch (pending, in id order) and the send metrics (counts per status).
  await db.schema
    .createIndex('campaign_recipients_status_idx')
    .on('campaign_recipients')
    .columns(['account_id', 'campaign_id', 'status', 'id'])
    .execute();
  // Deleting a contact or a conversation finds its recipient rows (cascade, set null).
  await db.schema
    .createIndex('campaign_recipients_contact_idx')
    .on('campaign_recipients')
    .column('contact_id')
    .execute();
  await db.schema
    .createIndex('campaign_recipients_conversation_idx')
    .on('campaign_recipients')
    .column('conversation_id')
    .execute();
}

export const migration0041Campaigns: PortableMigration = { up };
