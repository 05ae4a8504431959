import { HttpError, invalidField, notFound, unauthorized } from '../../../core/http/errors.js';
import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { createSmtpTransport, type MailTransport } from '../../../core/mail/mail.transport.js';
import { sendQueuedNow, type TransportFor } from '../../../core/mail/mail.worker.js';
import { enqueueEmail, type OutgoingEmail } from '../../../core/mail/outgoing-emails.js';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { checkOutboundAddress, outboundGuard } from '../../../core/webhooks/outbound-policy.js';
import type { FinanceContext, FinanceDeps, Trx } from '../../context.js';
import type { SmtpSettings } from '../../db/schema.js';
import type { UsersService } from '../users/users.service.js';
import * as repo from './smtp.repository.js';
import type { SmtpSaveBody } from './smtp.schema.js';
import { sendThroughSmtp, type OutgoingMessage, type SentMessage } from './smtp.sender.js';

export type { OutgoingMessage, SentMessage } from './smtp.sender.js';

const sealContext = (accountId: number) => `smtp_settings:${accountId}`;

/** An e-mail to queue: `source` says what it is (`identity:...` for invitations and resets: see transportFor). */
export interface QueuedEmail extends OutgoingMessage {
  accountId: number | null;
  source: string;
}

export const smtpNotConfigured = () =>
  new HttpError(
    422,
    'smtp_not_configured',
    'SMTP is not configured for this account: save it with POST /api/email/smtp',
  );

/**
 * Each account's SMTP configuration (password sealed with AES-256-GCM, never returned), and sending
 * e-mail: other modules `queue` their e-mails in their own transaction (core's durable mail queue)
 * and, when a request reports the outcome, `deliverNow`; `transportFor` routes each queued e-mail.
 */
export class SmtpService {
  private readonly guard: DestinationGuard;

  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
  ) {
    this.guard = outboundGuard(deps.config);
  }

  async get(ctx: FinanceContext): Promise<SmtpSettings | null> {
    return (await repo.findSmtp(this.deps.db, ctx.accountId)) ?? null;
  }

  /** Creates or replaces the configuration; the password is required the first time only. */
  async save(ctx: FinanceContext, body: SmtpSaveBody): Promise<SmtpSettings> {
    const host = checkOutboundAddress(this.guard, 'host', body.host, 'host');
    const user = body.user.trim();
    if (user === '') throw invalidField('user', 'must not be blank');
    const fromName = body.fromName?.trim() || null;
    const fromEmail = body.fromEmail?.trim() || null;
    return this.deps.db.transaction().execute(async (trx) => {
      const existing = await repo.findSmtp(trx, ctx.accountId);
      if (!existing && body.password === undefined) throw invalidField('password', 'is required on the first save');
      const now = Date.now();
      const values = {
        host,
        port: body.port,
        secure: body.secure ? 1 : 0,
        username: user,
        password_encrypted:
          body.password !== undefined
            ? this.deps.secrets.box.seal(body.password, sealContext(ctx.accountId))
            : existing!.password_encrypted,
        from_name: fromName,
        from_email: fromEmail,
        updated_at: now,
      };
      if (existing) return repo.updateSmtp(trx, ctx.accountId, values);
      return repo.insertSmtp(trx, { ...values, account_id: ctx.accountId, created_at: now });
    });
  }

  async delete(ctx: FinanceContext): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteSmtp(trx, ctx.accountId));
    if (!deleted) throw notFound('SMTP configuration');
  }

  /** Sends a test e-mail to the calling administrator with the saved configuration, now. */
  async sendTest(ctx: FinanceContext): Promise<SentMessage & { to: string }> {
    const user = await this.users.get(ctx.userId);
    if (!user) throw unauthorized();
    // In the language the request asks for, else the account's.
    const language = ctx.language ?? (await this.accounts.languageOf(ctx.accountId));
    const say = (text: Text) => render(text, language);
    const sent = await this.sendWithAccountSmtp(ctx.accountId, {
      to: user.email,
      subject: say('Ponte finance: SMTP test'),
      text:
        `${say('This is a test e-mail from the Ponte finance service.')}\n\n` +
        `${say('If you can read it, the SMTP configuration of your account works.')}\n`,
    });
    return { ...sent, to: user.email };
  }

  /**
   * Queues an e-mail in the caller's transaction (it exists if and only if that commits); the
   * mail worker, or `deliverNow`, sends it through `transportFor`. Returns its id.
   */
  queue(trx: Trx, email: QueuedEmail): Promise<string> {
    return enqueueEmail(trx, {
      accountId: email.accountId,
      source: email.source,
      to: typeof email.to === 'string' ? [email.to] : email.to,
      subject: email.subject,
      text: email.text,
      html: email.html ?? null,
      replyTo: email.replyTo ?? null,
      attachments: (email.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentBase64: Buffer.from(a.content).toString('base64'),
        ...(a.contentType ? { contentType: a.contentType } : {}),
      })),
    });
  }

  /**
   * Sends a queued e-mail now, once its transaction has committed, for a request that reports the
   * outcome: 422 `smtp_send_failed` with the server's answer when it fails (the e-mail is then
   * failed for good). Never inside a transaction.
   */
  async deliverNow(emailId: string): Promise<void> {
    const error = await sendQueuedNow(this.deps.db, emailId, this.transportFor, this.deps.logger);
    if (error !== null)
      throw new HttpError(
        422,
        'smtp_send_failed',
        t('The SMTP server did not accept the e-mail: %{reason}', { reason: error }),
      );
  }

  /** Whether an identity e-mail (invitation, reset) can be sent for the account: SMTP_URL or the account's own server. */
  async canSendIdentityMail(accountId: number): Promise<boolean> {
    return this.deps.config.mail.smtpUrl !== null || (await this.isConfigured(accountId));
  }

  /** Whether the account has saved an SMTP configuration (to refuse early, before writing anything). */
  async isConfigured(accountId: number): Promise<boolean> {
    return (await repo.findSmtp(this.deps.db, accountId)) !== undefined;
  }

  /**
   * Sends an e-mail now through the account's saved SMTP configuration. 422 `smtp_not_configured`
   * when there is none; 422 `smtp_send_failed` with the server's answer when sending fails.
   * Never call it inside a database transaction (it talks to the network).
   */
  async sendWithAccountSmtp(accountId: number, message: OutgoingMessage): Promise<SentMessage> {
    const settings = await repo.findSmtp(this.deps.db, accountId);
    if (!settings) throw smtpNotConfigured();
    return this.sendWith(settings, message);
  }

  /** The account whose SMTP server carries e-mails about a user: their oldest membership whose account has one, or null. */
  async accountForUserMail(userId: number): Promise<number | null> {
    return (await repo.findFirstSmtpOfUser(this.deps.db, userId))?.account_id ?? null;
  }

  /**
   * The transport of a queued e-mail (core's mail worker asks): identity e-mails (source
   * `identity:...`: invitations, password resets) go through the instance's SMTP_URL when it is
   * set, because an account's own server is run by that account's administrators, who must not
   * read links meant for someone else; everything else (reports) goes through the account's SMTP
   * configuration, then SMTP_URL. Null when there is neither.
   */
  readonly transportFor: TransportFor = Object.assign(
    async (email: OutgoingEmail) => {
      const { smtpUrl, from } = this.deps.config.mail;
      const instance = () => (smtpUrl ? { transport: (this.instance ??= createSmtpTransport(smtpUrl)), from } : null);
      if (email.source?.startsWith('identity:') && smtpUrl) return instance();
      const settings = email.account_id === null ? undefined : await repo.findSmtp(this.deps.db, email.account_id);
      if (!settings) return instance();
      const server = this.serverOf(settings);
      const transport: MailTransport = {
        send: async (message) => {
          await sendThroughSmtp(
            server,
            {
              messageId: `<${message.id}@${server.domain}>`,
              to: message.to,
              subject: message.subject,
              text: message.text,
              ...(message.html ? { html: message.html } : {}),
              ...(message.replyTo ? { replyTo: message.replyTo } : {}),
              attachments: (message.attachments ?? []).map((a) => ({
                filename: a.filename,
                content: Buffer.from(a.contentBase64, 'base64'),
                contentType: a.contentType,
              })),
            },
            this.guard,
          );
        },
        close: () => undefined,
      };
      return { transport, from: typeof server.from === 'string' ? server.from : server.from.address, dispose: true };
    },
    { close: () => this.instance?.close() },
  );

  private instance: MailTransport | undefined;

  /** The server of an account's configuration, its password opened (422 when it cannot be). */
  private serverOf(settings: SmtpSettings) {
    let password: string;
    try {
      password = this.deps.secrets.box.open(settings.password_encrypted, sealContext(settings.account_id));
    } catch {
      throw new HttpError(
        422,
        'smtp_password_unreadable',
        'The saved SMTP password cannot be decrypted (was FINANCE_ENCRYPTION_KEY changed?): save the SMTP configuration again',
      );
    }
    const address = settings.from_email ?? (settings.username.includes('@') ? settings.username : null);
    const from = address ? { name: settings.from_name ?? '', address } : this.deps.config.mail.from;
    const domain = /@([^>\s]+)>?\s*$/.exec(typeof from === 'string' ? from : from.address)?.[1] ?? 'ponte.local';
    return {
      host: settings.host,
      port: settings.port,
      secure: settings.secure === 1,
      user: settings.username,
      password,
      from,
      domain,
    };
  }

  private async sendWith(settings: SmtpSettings, message: OutgoingMessage): Promise<SentMessage> {
    const server = this.serverOf(settings);
    try {
      return await sendThroughSmtp(server, message, this.guard);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new HttpError(
        422,
        'smtp_send_failed',
        t('The SMTP server did not accept the e-mail: %{reason}', { reason }),
      );
    }
  }
}
