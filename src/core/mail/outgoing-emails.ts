import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { claimLeased, type LeasedQueue } from '../jobs/lease.js';
import type { MailAttachment } from './mail.transport.js';
import type { UntypedDb } from '../db/untyped.js';

export type EmailStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** The durable queue (and log) of e-mails a service sends. */
export interface OutgoingEmailsTable {
  /** The queue id; also the e-mail's Message-ID (same on every retry). */
  id: string;
  account_id: number | null;
  /** What queued it, for operators (e.g. `automation_rule:12`). */
  source: string | null;
  /** JSON array of recipient addresses. */
  to_addresses: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
  /** JSON array of MailAttachment (base64 content), or null. */
  attachments: string | null;
  status: EmailStatus;
  attempts: number;
  next_attempt_at: number;
  /** While `sending`: the lease; a worker that died leaves it to expire and be reclaimed. */
  locked_until: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  sent_at: number | null;
  created_at: number;
}

export interface OutgoingEmailsDatabase {
  outgoing_emails: OutgoingEmailsTable;
}

export type OutgoingEmail = OutgoingEmailsTable;

export interface NewEmail {
  to: readonly string[];
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  attachments?: readonly MailAttachment[];
  accountId?: number | null;
  source?: string | null;
}

const EMAIL_QUEUE: LeasedQueue = {
  table: 'outgoing_emails',
  waiting: 'pending',
  running: 'sending',
  dueColumn: 'next_attempt_at',
};

const table = <DB extends OutgoingEmailsDatabase>(q: Kysely<DB>) => q as unknown as Kysely<OutgoingEmailsDatabase>;

/**
 * Queues an e-mail; call it inside the transaction that decided it, so it is sent if and only if
 * that transaction commits. The mail worker sends it later (no network inside the transaction).
 */
export async function enqueueEmail(trx: UntypedDb, email: NewEmail): Promise<string> {
  if (email.to.length === 0) throw new Error('An e-mail needs at least one recipient');
  const id = `eml_${randomUUID().replace(/-/g, '')}`;
  const now = Date.now();
  await table(trx)
    .insertInto('outgoing_emails')
    .values({
      id,
      account_id: email.accountId ?? null,
      source: email.source ?? null,
      to_addresses: JSON.stringify([...email.to]),
      subject: email.subject,
      text_body: email.text,
      html_body: email.html ?? null,
      reply_to: email.replyTo ?? null,
      attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      last_error: null,
      last_attempt_at: null,
      sent_at: null,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * Claims up to `limit` e-mails that are due (or whose worker's lease ran out); each gets a lease
 * and one more attempt (core/jobs/lease.ts).
 */
export async function claimDueEmails<DB extends OutgoingEmailsDatabase>(
  db: Kysely<DB>,
  dialect: DialectName,
  options: { now: number; leaseMs: number; limit: number },
): Promise<OutgoingEmail[]> {
  const { now, leaseMs, limit } = options;
  return claimLeased<OutgoingEmail>(db, dialect, EMAIL_QUEUE, { now, leaseMs, limit, set: { last_attempt_at: now } });
}

export async function markEmailSent<DB extends OutgoingEmailsDatabase>(db: Kysely<DB>, id: string, now: number) {
  await table(db)
    .updateTable('outgoing_emails')
    .set({ status: 'sent', sent_at: now, locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: another try at `retryAt`, or `failed` for good when it is null. */
export async function markEmailFailed<DB extends OutgoingEmailsDatabase>(
  db: Kysely<DB>,
  id: string,
  error: string,
  retryAt: number | null,
) {
  await table(db)
    .updateTable('outgoing_emails')
    .set({
      status: retryAt === null ? 'failed' : 'pending',
      next_attempt_at: retryAt ?? Date.now(),
      locked_until: null,
      last_error: error.slice(0, 1000),
    })
    .where('id', '=', id)
    .execute();
}

export function recipientsOf(email: Pick<OutgoingEmail, 'to_addresses'>): string[] {
  try {
    const value = JSON.parse(email.to_addresses);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function attachmentsOf(email: Pick<OutgoingEmail, 'attachments'>): MailAttachment[] {
  if (!email.attachments) return [];
  try {
    const value = JSON.parse(email.attachments);
    return Array.isArray(value) ? (value as MailAttachment[]) : [];
  } catch {
    return [];
  }
}
