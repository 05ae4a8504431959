import type { Generated, Selectable } from 'kysely';
import type { OutboxTable } from '../../core/events/outbox.js';
import type { OutgoingEmailsTable } from '../../core/mail/outgoing-emails.js';
import type { WebhookDeliveriesTable } from '../../core/webhooks/deliveries.js';

/**
 * Row types of the finance service's tables (see migrations/). Timestamps are epoch milliseconds,
 * booleans 0/1, JSON documents text. Ids are integers here and strings in the API.
 */

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  full_name: string;
  /** argon2id; null until the user sets a password (a member added without one). */
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

export interface FinanceDatabase {
  outbox_events: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  outgoing_emails: OutgoingEmailsTable;
  users: UsersTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  smtp_settings: SmtpSettingsTable;
}

export type User = Selectable<UsersTable>;
export type Account = Selectable<AccountsTable>;
export type Membership = Selectable<MembershipsTable>;
export type RefreshToken = Selectable<RefreshTokensTable>;
export type PasswordReset = Selectable<PasswordResetsTable>;
export type SmtpSettings = Selectable<SmtpSettingsTable>;
