import type { CoreTables } from '../../core/db/core-tables.js';
import type { WebhooksTable } from '../../core/webhooks/subscriptions.js';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Row types of the conversation service's tables (see migrations/). Timestamps are epoch
 * milliseconds, booleans 0/1, JSON documents text.
 */

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  locale: Generated<string>;
  domain: string | null;
  support_email: string | null;
  status: Generated<string>;
  auto_resolve_duration: number | null;
  custom_attributes: Generated<string>;
  plan: string | null;
  features: Generated<string>;
  last_conversation_display_id: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  display_name: string | null;
  email: string;
  password_hash: string | null;
  avatar_url: string | null;
  custom_attributes: Generated<string>;
  pubsub_token: string;
  created_at: number;
  updated_at: number;
}

export interface PlatformAppsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface PlatformAppPermissiblesTable {
  id: Generated<number>;
  platform_app_id: number;
  permissible_type: 'Account' | 'User' | 'AgentBot';
  permissible_id: number;
  created_at: number;
}

export type TokenOwnerType = 'User' | 'AgentBot' | 'PlatformApp';

export interface AccessTokensTable {
  id: Generated<number>;
  owner_type: TokenOwnerType;
  owner_id: number;
  token: string;
  created_at: number;
}

export interface SsoTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export type AccountRole = 'agent' | 'administrator';
export type Availability = 'online' | 'offline' | 'busy';

export interface AccountUsersTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  role: AccountRole;
  availability: Generated<Availability>;
  auto_offline: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface AgentBotsTable {
  id: Generated<number>;
  account_id: number | null;
  name: string;
  description: string | null;
  outgoing_url: string | null;
  bot_type: Generated<string>;
  /** Signs the deliveries the bot receives; null for bots created before secrets existed. */
  secret: string | null;
  created_at: number;
  updated_at: number;
}

export interface TeamsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  allow_auto_assign: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface TeamMembersTable {
  id: Generated<number>;
  account_id: number;
  team_id: number;
  user_id: number;
  created_at: number;
}

export interface InboxesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  channel_type: string;
  channel: Generated<string>;
  identifier: string;
  phone_number: string | null;
  email: string | null;
  greeting_enabled: Generated<number>;
  greeting_message: string | null;
  enable_auto_assignment: Generated<number>;
  out_of_office_message: string | null;
  working_hours_enabled: Generated<number>;
  timezone: Generated<string>;
  agent_bot_id: number | null;
  /** Key of the contacts' identifier_hash (HMAC-SHA256); null only for rows written outside the service. */
  hmac_token: string | null;
  /** 1: the public interface refuses identification (identifier, e-mail) without a valid identifier_hash. */
  hmac_mandatory: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface InboxMembersTable {
  id: Generated<number>;
  account_id: number;
  inbox_id: number;
  user_id: number;
  created_at: number;
}

export interface ContactsTable {
  id: Generated<number>;
  account_id: number;
  name: Generated<string>;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  avatar_url: string | null;
  additional_attributes: Generated<string>;
  custom_attributes: Generated<string>;
  blocked: Generated<number>;
  last_activity_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ContactInboxesTable {
  id: Generated<number>;
  account_id: number;
  contact_id: number;
  inbox_id: number;
  source_id: string;
  pubsub_token: string;
  /** 1 once the contact was identified here with a valid identifier_hash. */
  hmac_verified: Generated<number>;
  created_at: number;
}

export type ConversationStatus = 'open' | 'resolved' | 'pending' | 'snoozed';
export type ConversationPriority = 'low' | 'medium' | 'high' | 'urgent';

export interface ConversationsTable {
  id: Generated<number>;
  account_id: number;
  display_id: number;
  uuid: string;
  inbox_id: number;
  contact_id: number;
  contact_inbox_id: number | null;
  assignee_id: number | null;
  team_id: number | null;
  status: Generated<ConversationStatus>;
  priority: ConversationPriority | null;
  snoozed_until: number | null;
  muted: Generated<number>;
  additional_attributes: Generated<string>;
  custom_attributes: Generated<string>;
  last_activity_at: number;
  first_reply_created_at: number | null;
  waiting_since: number | null;
  agent_last_seen_at: number | null;
  assignee_last_seen_at: number | null;
  contact_last_seen_at: number | null;
  created_at: number;
  updated_at: number;
}

/** 0 incoming (from the contact), 1 outgoing (from an agent or bot), 2 activity, 3 template. */
export type MessageTypeCode = 0 | 1 | 2 | 3;
export type SenderType = 'Contact' | 'User' | 'AgentBot';

export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  conversation_id: number;
  inbox_id: number;
  content: string | null;
  message_type: MessageTypeCode;
  content_type: Generated<string>;
  content_attributes: Generated<string>;
  additional_attributes: Generated<string>;
  private: Generated<number>;
  status: Generated<string>;
  source_id: string | null;
  echo_id: string | null;
  sender_type: SenderType | null;
  sender_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface AttachmentsTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  file_type: string;
  file_name: string;
  content_type: string;
  extension: string | null;
  file_size: number;
  storage_key: string;
  created_at: number;
}

export type TaggableType = 'Contact' | 'Conversation';

export interface TaggingsTable {
  id: Generated<number>;
  account_id: number;
  taggable_type: TaggableType;
  taggable_id: number;
  label: string;
  created_at: number;
}

export interface AutomationRulesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  /** conversation_created | conversation_updated | message_created | conversation_opened | conversation_resolved */
  event_name: string;
  /** JSON array of {attribute_key, filter_operator, values, query_operator}. */
  conditions: string;
  /** JSON array of {action_name, action_params}. */
  actions: string;
  active: number;
  created_at: number;
  updated_at: number;
}

/** A conversation rule's run: `applied` or `failed` (runs whose conditions did not match are not logged). */
export type AutomationRunOutcome = 'applied' | 'skipped' | 'failed';

/** The two automation engines that record runs (automation-rules, pipeline-automations). */
export type AutomationKind = 'automation_rule' | 'pipeline_automation';

/**
 * One run of an automation of either kind on one subject (0013_automation_runs; decisions/0005 and
 * 0024 give the mapping from the two tables it replaced). Each kind keeps its own vocabulary in
 * `status` (rules: applied | failed; pipeline automations: succeeded | failed | skipped) and in
 * `actions` (rules: the names applied; pipeline automations: `{type, status, error}` per action).
 */
export interface AutomationRunsTable {
  id: Generated<number>;
  account_id: number;
  automation_kind: AutomationKind;
  /** The rule's or the pipeline automation's id, per `automation_kind`: what every query filters on. */
  automation_id: number;
  /**
   * The same id again, in the column of its kind, only so the database deletes the runs with their
   * automation (one column cannot reference two tables); null in the other kind's rows.
   * `pipeline_automation_id` is added by the pipeline-automations module's 0131.
   */
  rule_id: number | null;
  pipeline_automation_id: number | null;
  /** `conversation` (subject_id: its display id, as events and the API name it) or `card` (its id). */
  subject_type: string;
  subject_id: number;
  /** What set the run off: the outbox event name (rules) or the automation trigger (pipeline). */
  trigger: string;
  status: AutomationRunOutcome | 'succeeded';
  /** JSON array, per kind (see above). */
  actions: string;
  error: string | null;
  /** The outbox event that triggered the run (null: manual or scheduled runs). */
  event_id: number | null;
  /** Makes a scheduled check fire once per occasion (unique per automation and subject). */
  dedupe_key: string | null;
  started_at: number;
  finished_at: number;
  duration_ms: number;
}

/** How many conversations are in each (account, inbox, team, assignee, status); kept by triggers (0016). */
export interface ConversationCountsTable {
  account_id: number;
  inbox_id: number;
  /** 0: no team. */
  team_id: number;
  /** 0: unassigned. */
  assignee_id: number;
  status: ConversationStatus;
  count: number;
}

/** How many contacts each account has; kept by triggers (0017). */
export interface ContactCountsTable {
  account_id: number;
  count: number;
}

export interface ChatDatabase extends CoreTables {
  webhooks: WebhooksTable;
  automation_rules: AutomationRulesTable;
  automation_runs: AutomationRunsTable;
  accounts: AccountsTable;
  users: UsersTable;
  platform_apps: PlatformAppsTable;
  platform_app_permissibles: PlatformAppPermissiblesTable;
  access_tokens: AccessTokensTable;
  sso_tokens: SsoTokensTable;
  account_users: AccountUsersTable;
  agent_bots: AgentBotsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  inboxes: InboxesTable;
  inbox_members: InboxMembersTable;
  contacts: ContactsTable;
  contact_inboxes: ContactInboxesTable;
  conversations: ConversationsTable;
  conversation_counts: ConversationCountsTable;
  contact_counts: ContactCountsTable;
  messages: MessagesTable;
  attachments: AttachmentsTable;
  taggings: TaggingsTable;
}

export type Account = Selectable<AccountsTable>;
export type User = Selectable<UsersTable>;
export type AccountUser = Selectable<AccountUsersTable>;
export type AgentBot = Selectable<AgentBotsTable>;
export type Team = Selectable<TeamsTable>;
export type Inbox = Selectable<InboxesTable>;
export type Contact = Selectable<ContactsTable>;
export type ContactInbox = Selectable<ContactInboxesTable>;
export type Conversation = Selectable<ConversationsTable>;
export type Message = Selectable<MessagesTable>;
export type Attachment = Selectable<AttachmentsTable>;
export type NewMessage = Insertable<MessagesTable>;
export type ConversationUpdate = Updateable<ConversationsTable>;
export type Webhook = Selectable<WebhooksTable>;
export type AutomationRule = Selectable<AutomationRulesTable>;
export type AutomationRun = Selectable<AutomationRunsTable>;
/** A conversation rule's run (`automation_kind` 'automation_rule'). */
export type AutomationRuleRun = AutomationRun & { status: AutomationRunOutcome };
