import { PollLoop } from '../background/poll-loop.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { MailTransport } from './mail.transport.js';
import {
  attachmentsOf,
  claimDueEmails,
  markEmailFailed,
  markEmailSent,
  recipientsOf,
  type OutgoingEmail,
  type OutgoingEmailsDatabase,
} from './outgoing-emails.js';
import type { UntypedDb } from '../db/untyped.js';

/** How one queued e-mail is sent: the transport and the From header; `dispose` closes a one-off transport. */
export interface ResolvedTransport {
  transport: MailTransport;
  from: string;
  dispose?: boolean;
}

/**
 * Picks the transport for one e-mail (the instance's SMTP_URL, an account's own server...), or null
 * when there is none: the e-mail then fails with `NO_SMTP_ERROR` (or the reason thrown).
 */
export type TransportFor = ((email: OutgoingEmail) => Promise<ResolvedTransport | null>) & {
  /** Closes what the picker keeps open (called when the worker stops). */
  close?: () => void;
};

export interface MailWorkerOptions<DB extends OutgoingEmailsDatabase> {
  db: Kysely<DB>;
  dialect: DialectName;
  logger: FastifyBaseLogger;
  transportFor: TransportFor;
  /** Delay before each retry, in ms; its length is the number of retries (default 1 min, 5 min, 30 min). */
  retryDelaysMs?: readonly number[];
  /** Lease on a claimed e-mail; longer than one SMTP conversation may take. */
  leaseMs?: number;
  pollIntervalMs?: number;
  /** E-mails sent at once. */
  batchSize?: number;
}

export const DEFAULT_MAIL_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000] as const;
export const NO_SMTP_ERROR = 'SMTP_URL is not configured';

/**
 * Sends the queued e-mails (`outgoing_emails`): claims due ones with a lease, sends each through
 * the transport outside any transaction, and records the outcome: `sent`, or another attempt
 * after a growing delay, or `failed` with the last error once the retries are used up. At least
 * once: a worker that dies mid-send leaves its lease to expire and the e-mail is sent again
 * (with the same Message-ID).
 */
export class MailWorker<DB extends OutgoingEmailsDatabase> {
  private readonly loop: PollLoop;

  constructor(private readonly options: MailWorkerOptions<DB>) {
    const idle = options.pollIntervalMs ?? 1000;
    this.loop = new PollLoop(
      async () => ((await this.runOnce()) > 0 ? 0 : idle),
      (err) => options.logger.error({ err }, 'mail claim failed'),
      Math.max(idle, 1000),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the e-mails in flight. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.options.transportFor.close?.();
  }

  /** Asks for a claim soon (new e-mails were queued). */
  poke(): void {
    this.loop.poke();
  }

  /** Claims and sends one batch of due e-mails, waiting for them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await claimDueEmails(this.options.db, this.options.dialect, {
      now: Date.now(),
      leaseMs: this.options.leaseMs ?? 120_000,
      limit: this.options.batchSize ?? 10,
    });
    await Promise.all(claimed.map((email) => this.attempt(email)));
    return claimed.length;
  }

  private async attempt(email: OutgoingEmail): Promise<void> {
    const error = await deliverEmail(this.options.db, email, this.options.transportFor, this.options.logger);
    if (error === NO_SMTP_ERROR) {
      // Nothing to send through: no retry would change that.
      await markEmailFailed(this.options.db, email.id, error, null);
      this.options.logger.warn({ emailId: email.id }, `e-mail not sent: ${NO_SMTP_ERROR}`);
    } else if (error !== null) await this.failed(email, error);
  }

  /** Another attempt after a growing delay, or `failed` for good once the retries are used up. */
  private async failed(email: OutgoingEmail, message: string): Promise<void> {
    const delays = this.options.retryDelaysMs ?? DEFAULT_MAIL_RETRY_DELAYS_MS;
    const retryIndex = email.attempts - 1;
    const retryAt = retryIndex < delays.length ? Date.now() + delays[retryIndex] : null;
    await markEmailFailed(this.options.db, email.id, message, retryAt);
    this.options.logger.info(
      { emailId: email.id, attempts: email.attempts, error: message, final: retryAt === null },
      'e-mail attempt failed',
    );
  }
}

/**
 * One attempt at a claimed e-mail: picks its transport, sends it, and marks it sent. Returns null
 * on success, else the error (the caller decides between a retry and giving up).
 */
export async function deliverEmail(
  db: UntypedDb,
  email: OutgoingEmail,
  transportFor: TransportFor,
  logger: FastifyBaseLogger,
): Promise<string | null> {
  let resolved: ResolvedTransport | null;
  try {
    resolved = await transportFor(email);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (!resolved) return NO_SMTP_ERROR;
  try {
    await resolved.transport.send({
      id: email.id,
      from: resolved.from,
      to: recipientsOf(email),
      subject: email.subject,
      text: email.text_body,
      html: email.html_body,
      replyTo: email.reply_to,
      attachments: attachmentsOf(email),
    });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    if (resolved.dispose) resolved.transport.close();
  }
  await markEmailSent(db, email.id, Date.now());
  logger.debug({ emailId: email.id }, 'e-mail sent');
  return null;
}

/**
 * Sends one queued e-mail now, for a request that reports the outcome to its caller (a test
 * e-mail, an invitation, a report sent by hand): claims it, attempts it once, and on failure marks
 * it failed for good (the caller has told someone it failed; no surprise retry later). If the
 * process dies before the attempt, the e-mail is still queued and the worker sends it. Returns the
 * error, or null once sent. When the worker claimed the row first, this waits (a bounded time) for
 * that attempt's outcome, so the caller reports what happened rather than what was hoped.
 */
export async function sendQueuedNow(
  db: UntypedDb,
  id: string,
  transportFor: TransportFor,
  logger: FastifyBaseLogger,
): Promise<string | null> {
  const now = Date.now();
  const claimed = (await (db as Kysely<OutgoingEmailsDatabase>)
    .updateTable('outgoing_emails')
    .set((eb) => ({
      status: 'sending',
      locked_until: now + 120_000,
      attempts: eb('attempts', '+', 1),
      last_attempt_at: now,
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst()) as OutgoingEmail | undefined;
  if (!claimed) return outcomeOfWorkerAttempt(db, id);
  const error = await deliverEmail(db, claimed, transportFor, logger);
  if (error !== null) await markEmailFailed(db, id, error, null);
  return error;
}

const WORKER_ATTEMPT_WAIT_MS = 30_000;

/**
 * The outcome of the attempt another worker is making at an e-mail: null once it is sent, its
 * error when the attempt failed (the e-mail then waits for a retry or has failed), null if the
 * attempt outlasts the wait (it stays the worker's to finish).
 */
async function outcomeOfWorkerAttempt(db: UntypedDb, id: string): Promise<string | null> {
  const deadline = Date.now() + WORKER_ATTEMPT_WAIT_MS;
  for (;;) {
    const row = await (db as Kysely<OutgoingEmailsDatabase>)
      .selectFrom('outgoing_emails')
      .select(['status', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.status === 'sent') return null;
    if (row.status !== 'sending') return row.last_error ?? 'the e-mail was not sent';
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The instance-wide transport (SMTP_URL), shared by every e-mail, or none. */
export function instanceTransport(
  smtpUrl: string | null,
  from: string,
  create: (url: string) => MailTransport,
): TransportFor {
  let transport: MailTransport | null = null;
  const pick = async () => {
    if (!smtpUrl) return null;
    transport ??= create(smtpUrl);
    return { transport, from };
  };
  return Object.assign(pick, {
    close: () => {
      transport?.close();
      transport = null;
    },
  });
}
