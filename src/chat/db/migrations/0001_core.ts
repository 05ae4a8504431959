import { sql } from 'kysely';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import { withId } from '../../../core/db/schema-helpers.js';
import { createOutboxTable } from '../../../core/events/outbox.migration.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The conversation core: accounts, users and tokens, platform apps, teams, inboxes, contacts,
 * conversations, messages, attachments, labels. Every account-owned table has its own
 * `account_id`, and every index used by a list leads with it.
 */
async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  const table = (name: string) => withId(db.schema.createTable(name), dialect);
  const index = (name: string, on: string, columns: string[], unique = false) => {
    const b = db.schema.createIndex(name).on(on).columns(columns);
    return (unique ? b.unique() : b).execute();
  };

  await createOutboxTable(db, dialect);

  await table('accounts')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('domain', 'text')
    .addColumn('support_email', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('auto_resolve_duration', 'integer')
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('plan', 'text')
    .addColumn('features', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('last_conversation_display_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await table('users')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('pubsub_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('users_email_uidx', 'users', ['email'], true);
  await index('users_pubsub_token_uidx', 'users', ['pubsub_token'], true);

  await table('platform_apps')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // What each platform app created, and so may manage (accounts, users, agent bots).
  await table('platform_app_permissibles')
    .addColumn('platform_app_id', 'bigint', (c) => c.notNull().references('platform_apps.id').onDelete('cascade'))
    .addColumn('permissible_type', 'text', (c) => c.notNull())
    .addColumn('permissible_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index(
    'platform_app_permissibles_uidx',
    'platform_app_permissibles',
    ['platform_app_id', 'permissible_type', 'permissible_id'],
    true,
  );
  await index('platform_app_permissibles_target_idx', 'platform_app_permissibles', [
    'permissible_type',
    'permissible_id',
  ]);

  // One table for every bearer token: users, agent bots and platform apps.
  await table('access_tokens')
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('access_tokens_token_uidx', 'access_tokens', ['token'], true);
  await index('access_tokens_owner_uidx', 'access_tokens', ['owner_type', 'owner_id'], true);

  await table('sso_tokens')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('sso_tokens_hash_uidx', 'sso_tokens', ['token_hash'], true);

  await table('account_users')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('availability', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('auto_offline', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('account_users_uidx', 'account_users', ['account_id', 'user_id'], true);
  await index('account_users_user_idx', 'account_users', ['user_id']);

  await table('agent_bots')
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('outgoing_url', 'text')
    .addColumn('bot_type', 'text', (c) => c.notNull().defaultTo('webhook'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('agent_bots_account_idx', 'agent_bots', ['account_id']);

  await table('teams')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('allow_auto_assign', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Team names are unique per account regardless of case.
  await sql`create unique index teams_account_lower_name_uidx on teams (account_id, lower(name))`.execute(db);

  await table('team_members')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('team_members_uidx', 'team_members', ['team_id', 'user_id'], true);
  await index('team_members_account_user_idx', 'team_members', ['account_id', 'user_id']);

  await table('inboxes')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('channel_type', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text')
    .addColumn('email', 'text')
    .addColumn('greeting_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('greeting_message', 'text')
    .addColumn('enable_auto_assignment', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('out_of_office_message', 'text')
    .addColumn('working_hours_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('agent_bot_id', 'bigint', (c) => c.references('agent_bots.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('inboxes_identifier_uidx', 'inboxes', ['identifier'], true);
  await index('inboxes_account_idx', 'inboxes', ['account_id', 'id']);

  await table('inbox_members')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('inbox_id', 'bigint', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('inbox_members_uidx', 'inbox_members', ['inbox_id', 'user_id'], true);
  await index('inbox_members_account_user_idx', 'inbox_members', ['account_id', 'user_id']);

  await table('contacts')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('identifier', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('additional_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('contacts_account_email_uidx', 'contacts', ['account_id', 'email'], true);
  await index('contacts_account_identifier_uidx', 'contacts', ['account_id', 'identifier'], true);
  await index('contacts_account_phone_idx', 'contacts', ['account_id', 'phone_number']);
  await index('contacts_account_activity_idx', 'contacts', ['account_id', 'last_activity_at']);
  await index('contacts_account_name_idx', 'contacts', ['account_id', 'name']);

  await table('contact_inboxes')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('contact_id', 'bigint', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('inbox_id', 'bigint', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('pubsub_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('contact_inboxes_source_uidx', 'contact_inboxes', ['inbox_id', 'source_id'], true);
  await index('contact_inboxes_pubsub_uidx', 'contact_inboxes', ['pubsub_token'], true);
  await index('contact_inboxes_contact_idx', 'contact_inboxes', ['contact_id']);

  await table('conversations')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('display_id', 'integer', (c) => c.notNull())
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('inbox_id', 'bigint', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('contact_id', 'bigint', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('contact_inbox_id', 'bigint', (c) => c.references('contact_inboxes.id').onDelete('set null'))
    .addColumn('assignee_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('team_id', 'bigint', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('priority', 'text')
    .addColumn('snoozed_until', 'bigint')
    .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('additional_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('first_reply_created_at', 'bigint')
    .addColumn('waiting_since', 'bigint')
    .addColumn('agent_last_seen_at', 'bigint')
    .addColumn('assignee_last_seen_at', 'bigint')
    .addColumn('contact_last_seen_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('conversations_display_uidx', 'conversations', ['account_id', 'display_id'], true);
  await index('conversations_uuid_uidx', 'conversations', ['uuid'], true);
  await index('conversations_account_activity_idx', 'conversations', ['account_id', 'last_activity_at']);
  await index('conversations_account_status_activity_idx', 'conversations', [
    'account_id',
    'status',
    'last_activity_at',
  ]);
  await index('conversations_account_inbox_idx', 'conversations', ['account_id', 'inbox_id', 'status']);
  await index('conversations_account_assignee_idx', 'conversations', ['account_id', 'assignee_id', 'status']);
  await index('conversations_account_team_idx', 'conversations', ['account_id', 'team_id', 'status']);
  await index('conversations_account_contact_idx', 'conversations', ['account_id', 'contact_id']);
  await index('conversations_contact_inbox_idx', 'conversations', ['contact_inbox_id']);

  await table('messages')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('inbox_id', 'bigint', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('message_type', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull().defaultTo('text'))
    .addColumn('content_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('additional_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('sent'))
    .addColumn('source_id', 'text')
    .addColumn('echo_id', 'text')
    .addColumn('sender_type', 'text')
    .addColumn('sender_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The conversation's thread (also serves the foreign-key cascade), and the same led by the
  // account so that account-scoped lookups of a page of conversations' messages use it.
  await index('messages_conversation_idx', 'messages', ['conversation_id', 'id']);
  await index('messages_account_conversation_idx', 'messages', ['account_id', 'conversation_id', 'id']);
  await index('messages_account_created_idx', 'messages', ['account_id', 'created_at']);

  await table('attachments')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('extension', 'text')
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('attachments_message_idx', 'attachments', ['message_id']);
  await index('attachments_storage_key_uidx', 'attachments', ['storage_key'], true);

  // Labels of contacts and conversations (taggable_type 'Contact' | 'Conversation').
  await table('taggings')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('taggable_type', 'text', (c) => c.notNull())
    .addColumn('taggable_id', 'bigint', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('taggings_uidx', 'taggings', ['taggable_type', 'taggable_id', 'label'], true);
  await index('taggings_account_label_idx', 'taggings', ['account_id', 'taggable_type', 'label', 'taggable_id']);
}

export const migration0001: PortableMigration = { up };
