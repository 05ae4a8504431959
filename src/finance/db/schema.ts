import type { CoreTables } from '../../core/db/core-tables.js';
import type { WebhooksTable } from '../../core/webhooks/subscriptions.js';
import type { Generated, Selectable } from 'kysely';
import type { Language } from '../../core/i18n/language.js';

/**
 * Row types of the finance service's tables (see migrations/). Timestamps are epoch milliseconds,
 * booleans 0/1, JSON documents text. Ids are integers here and strings in the API.
 */

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  full_name: string;
  /** argon2id; null until the user sets a password (users added by an administrator before invitations). */
  password_hash: string | null;
  avatar_url: string | null;
  email_verified: Generated<number>;
  is_super_admin: Generated<number>;
  /** Access tokens carry it; bumping it (password change or reset) makes earlier ones fail. */
  token_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  /** The language of the account's report e-mails and notifications (0009_account_locale). */
  locale: Generated<Language>;
  created_at: number;
  updated_at: number;
}

export type MembershipRole = 'admin' | 'agent';

export interface MembershipsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  role: MembershipRole;
  created_at: number;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  /** Every token rotated from one login shares the family; reuse of a used token revokes it all. */
  family_id: string;
  /** SHA-256 hex of the opaque token. */
  token_hash: string;
  user_id: number;
  account_id: number;
  expires_at: number;
  /** Set when rotated (exchanged for a new pair). */
  used_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  /** SHA-256 hex of the token sent by e-mail. */
  token_hash: string;
  user_id: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** `expired` is not stored: it is a pending invitation whose `expires_at` has passed. */
export type InvitationStatus = 'pending' | 'accepted' | 'revoked';

/** An invitation to join an account with a role; the e-mailed token is kept as its SHA-256. */
export interface InvitationsTable {
  id: Generated<number>;
  account_id: number;
  /** Lower-cased. */
  email: string;
  role: MembershipRole;
  /** SHA-256 hex of the token in the link; replaced on every resend. */
  token_hash: string;
  status: InvitationStatus;
  /** The administrator who sent (or last renewed) it; null once that user is deleted. */
  invited_by: number | null;
  accepted_by: number | null;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RateLimitBucketsTable {
  /** What is limited and for whom, e.g. `login:ip:203.0.113.9`. */
  key: string;
  window_start: number;
  count: number;
  /** When the bucket may be deleted (end of its window). */
  expires_at: number;
}

export interface SmtpSettingsTable {
  id: Generated<number>;
  account_id: number;
  host: string;
  port: number;
  secure: number;
  username: string;
  /** Sealed with the finance encryption key (AES-256-GCM), bound to the account id. */
  password_encrypted: string;
  from_name: string | null;
  from_email: string | null;
  created_at: number;
  updated_at: number;
}

export type TransactionKind = 'income' | 'expense';
export type TransactionStatus = 'pending' | 'completed' | 'cancelled';
export type BillStatus = 'open' | 'paid' | 'cancelled';
export type InvoiceStatus = 'draft' | 'issued' | 'paid' | 'overdue' | 'cancelled';
export type ContractStatus = 'active' | 'cancelled';

/** Money is integer cents; dates are 'YYYY-MM-DD' text. */
export interface TransactionsTable {
  id: Generated<number>;
  account_id: number;
  kind: TransactionKind;
  amount_cents: number;
  currency: string;
  date: string;
  category: string | null;
  description: string | null;
  status: TransactionStatus;
  /** The bill whose payment this expense records (migration 0008); null for other transactions. */
  bill_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface BillsTable {
  id: Generated<number>;
  account_id: number;
  supplier: string;
  description: string | null;
  category: string | null;
  amount_cents: number;
  currency: string;
  due_date: string;
  status: BillStatus;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface InvoicesTable {
  id: Generated<number>;
  account_id: number;
  customer: string;
  description: string | null;
  amount_cents: number;
  currency: string;
  due_date: string;
  status: InvoiceStatus;
  issued_at: number | null;
  paid_at: number | null;
  overdue_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ContractsTable {
  id: Generated<number>;
  account_id: number;
  party: string;
  description: string | null;
  value_cents: number;
  currency: string;
  start_date: string;
  end_date: string | null;
  status: ContractStatus;
  cancelled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A finance webhook: `events` is a JSON array of event names; `secret` signs its deliveries. */

export type NotificationType = 'bill_due_soon' | 'bill_overdue' | 'payment_confirmed' | 'accountant_sent' | 'system';

/** An in-service notification of one user in one account. */
export interface NotificationsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  type: NotificationType;
  title: string;
  message: string;
  read: Generated<number>;
  read_at: number | null;
  /** JSON text, e.g. `{"billId":"12"}`. */
  data: string | null;
  /** Unique per (account, user) when set: "once per bill" even when the job runs twice. */
  dedupe_key: string | null;
  created_at: number;
}

/** A user's alert preferences in an account (no row: every alert on, 3 days before due). */
export interface NotificationPreferencesTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  bill_due_soon: number;
  bill_overdue: number;
  payment_confirmed: number;
  accountant_sent: number;
  days_before_due: number;
  created_at: number;
  updated_at: number;
}

/** The accountant's contact and report options (one per account). */
export interface AccountantSettingsTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  name: string | null;
  auto_send: number;
  send_day: number;
  include_transactions: number;
  include_bills: number;
  include_expenses: number;
  /** 'YYYY-MM' of the last automatic report (claimed before sending). */
  last_auto_sent_month: string | null;
  created_at: number;
  updated_at: number;
}

/** Claims of daily jobs: one row per job name and UTC day. */
export interface JobRunsTable {
  name: string;
  day: string;
  started_at: number;
  finished_at: number | null;
  summary: string | null;
}

export interface FinanceDatabase extends CoreTables {
  users: UsersTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  invitations: InvitationsTable;
  smtp_settings: SmtpSettingsTable;
  transactions: TransactionsTable;
  bills: BillsTable;
  invoices: InvoicesTable;
  contracts: ContractsTable;
  webhooks: WebhooksTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  accountant_settings: AccountantSettingsTable;
  job_runs: JobRunsTable;
}

export type User = Selectable<UsersTable>;
export type Account = Selectable<AccountsTable>;
export type Membership = Selectable<MembershipsTable>;
export type RefreshToken = Selectable<RefreshTokensTable>;
export type PasswordReset = Selectable<PasswordResetsTable>;
export type Invitation = Selectable<InvitationsTable>;
export type SmtpSettings = Selectable<SmtpSettingsTable>;
export type Transaction = Selectable<TransactionsTable>;
export type Bill = Selectable<BillsTable>;
export type Invoice = Selectable<InvoicesTable>;
export type Contract = Selectable<ContractsTable>;
export type Notification = Selectable<NotificationsTable>;
export type NotificationPreferences = Selectable<NotificationPreferencesTable>;
export type AccountantSettings = Selectable<AccountantSettingsTable>;
