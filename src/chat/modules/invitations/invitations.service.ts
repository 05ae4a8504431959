import type { FastifyBaseLogger } from 'fastify';
import { languageOfLocale, type Language } from '../../../core/i18n/language.js';
import { HttpError, invalidField } from '../../../core/http/errors.js';
import { enqueueJob } from '../../../core/jobs/jobs.js';
import { enqueueEmail } from '../../../core/mail/outgoing-emails.js';
import type { RateLimiter, RateRule } from '../../../core/security/rate-limit.js';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import { openSession, type OpenedSession } from '../../auth/sessions.js';
import type { ChatDeps, Q, Trx } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { AgentInvitation, AgentInvitations, InvitationOutcome } from '../agents/agents.service.js';
import { normalizeEmail, type UsersService } from '../users/users.service.js';
import { invitationMail, resetMail } from './invitations.mail.js';
import type { PasswordTokenPurpose } from './password-tokens.migration.js';
import * as repo from './password-tokens.repository.js';
import { t } from '../../../core/i18n/catalogue.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An invitation link works for 7 days, a reset link for one hour; each once. */
export const INVITATION_TTL_MS = 7 * 24 * HOUR;
export const RESET_TTL_MS = HOUR;

/** Passwords chosen through a link: at least 8 characters, and no longer than sign-in accepts. */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

/**
 * Rate limits, in the database (shared by instances): forgotten-password requests per e-mail and
 * per client address (each may send an e-mail), and uses and look-ups of links per client address.
 */
export const PASSWORD_LIMITS = {
  forgotPerEmail: { limit: 5, windowMs: HOUR },
  forgotPerIp: { limit: 20, windowMs: HOUR },
  setPerIp: { limit: 10, windowMs: MINUTE },
  lookupPerIp: { limit: 30, windowMs: MINUTE },
} as const;

/** The job that writes a reset link and queues its e-mail, after the request has answered. */
export const RESET_JOB = 'invitations.password_reset';

const invalidLink = () =>
  new HttpError(422, 'invalid_reset_token', 'This link is invalid, was already used or has expired', [
    { field: 'reset_password_token', message: 'is invalid, used or expired' },
  ]);

/** What the set-password page shows about a link that works. */
export interface LinkPreview {
  purpose: PasswordTokenPurpose;
  email: string;
  accountName: string | null;
  /** The language of the account an invitation is to (its locale); null for a reset. */
  accountLanguage: Language | null;
}

export interface SetPasswordInput {
  token: string;
  password: string;
  confirmation: string;
}

/**
 * Set-password links: the invitation a new agent gets (queued in the transaction that creates the
 * user, through the instance's SMTP_URL), the forgotten-password link, and setting the password
 * with either (once, before it expires). Identity e-mails go only through SMTP_URL (decisions/0013,
 * 0023); without it nothing is issued, since nobody could receive the link.
 */
export class InvitationsService implements AgentInvitations {
  constructor(
    private readonly deps: ChatDeps,
    private readonly others: { users: UsersService; accounts: AccountsService; rateLimits: RateLimiter },
  ) {}

  private get mailConfigured(): boolean {
    return this.deps.config.mail.smtpUrl !== null;
  }

  /** The set-password page's link; it carries the e-mail's language, which the page is shown in. */
  private link(token: string, language: Language): string {
    const page = `${this.deps.config.chat.publicUrl}/auth/password/edit`;
    return `${page}?reset_password_token=${encodeURIComponent(token)}&locale=${language}`;
  }

  /** Records a new link for the user (hashed) and returns the token for the e-mail. */
  private async issue(
    q: Q,
    userId: number,
    purpose: PasswordTokenPurpose,
    accountId: number | null,
    now = Date.now(),
  ): Promise<string> {
    const token = randomToken(32);
    // A newer link of the same kind replaces the older ones.
    await repo.retirePasswordTokens(q, userId, now, purpose);
    await repo.insertPasswordToken(q, {
      userId,
      purpose,
      tokenHash: sha256Hex(token),
      accountId,
      expiresAt: now + (purpose === 'invitation' ? INVITATION_TTL_MS : RESET_TTL_MS),
      now,
    });
    return token;
  }

  /**
   * The invitation of a user the agent creation has just created, in its transaction: the link
   * and its e-mail commit with the user or not at all. `not_sent` without SMTP_URL.
   */
  async invite(trx: Trx, invitation: AgentInvitation): Promise<InvitationOutcome> {
    if (!this.mailConfigured) return 'not_sent';
    const { users, accounts } = this.others;
    const account = await accounts.find(trx, invitation.accountId);
    const inviter = invitation.invitedBy === null ? undefined : await users.find(trx, invitation.invitedBy);
    const token = await this.issue(trx, invitation.user.id, 'invitation', invitation.accountId);
    const language = languageOfLocale(account?.locale);
    const mail = invitationMail({
      name: invitation.user.name,
      accountName: account?.name ?? null,
      inviterName: inviter ? inviter.display_name || inviter.name : null,
      role: invitation.role,
      link: this.link(token, language),
      newLinkPage: `${this.deps.config.chat.publicUrl}/auth/password/new?locale=${language}`,
      language,
    });
    await enqueueEmail(trx, {
      to: [invitation.user.email],
      subject: mail.subject,
      text: mail.text,
      accountId: invitation.accountId,
      source: 'identity:invitation',
    });
    return 'queued';
  }

  /**
   * Starts a forgotten-password reset. After the rate limits the request does the same thing for
   * every address (it queues a job), so neither the answer nor its timing tells whether the address
   * has a user; the job writes the link and queues the e-mail.
   */
  async forgot(email: string, ip: string, language: Language = 'en'): Promise<void> {
    const normalized = normalizeEmail(email);
    const rules: RateRule[] = [
      { key: `chatForgotPerEmail:${normalized}`, ...PASSWORD_LIMITS.forgotPerEmail },
      { key: `chatForgotPerIp:${ip}`, ...PASSWORD_LIMITS.forgotPerIp },
    ];
    await this.others.rateLimits.consume(rules);
    await enqueueJob(this.deps.db, { name: RESET_JOB, payload: { email: normalized, language } });
  }

  /** The reset job: a link and its e-mail in one transaction, for an address that has a user. */
  async sendResetLink(email: string, language: Language, logger: FastifyBaseLogger): Promise<void> {
    if (!this.mailConfigured) {
      logger.warn('password reset e-mail not sent: SMTP_URL is not set');
      return;
    }
    const user = await this.others.users.findByEmail(this.deps.db, email);
    if (!user) return;
    await this.deps.db.transaction().execute(async (trx) => {
      const token = await this.issue(trx, user.id, 'reset', null);
      const mail = resetMail({ name: user.name, link: this.link(token, language), language });
      await enqueueEmail(trx, {
        to: [user.email],
        subject: mail.subject,
        text: mail.text,
        source: 'identity:password_reset',
      });
    });
  }

  private async find(token: string, now = Date.now()) {
    if (!token || token.length > 512) throw invalidLink();
    const found = await repo.findPasswordToken(this.deps.db, sha256Hex(token));
    if (!found || found.used_at !== null || found.expires_at <= now) throw invalidLink();
    return found;
  }

  /** Who a working link is for (the page's heading); 422 for a link that does not work. */
  async preview(token: string, ip: string): Promise<LinkPreview> {
    await this.others.rateLimits.consume([{ key: `chatPasswordLinkPerIp:${ip}`, ...PASSWORD_LIMITS.lookupPerIp }]);
    const found = await this.find(token);
    return {
      purpose: found.purpose,
      email: found.email,
      accountName: found.account_name ?? null,
      accountLanguage: found.account_locale ? languageOfLocale(found.account_locale) : null,
    };
  }

  /**
   * Sets the password with a link, once: the link is used, the user's other links are retired and
   * every sign-in session ends (UsersService.update). With `signIn`, a new session is opened in the
   * same transaction (PUT /auth/password answers as sign-in does).
   */
  async setPassword(
    input: SetPasswordInput,
    ip: string,
    options: { signIn?: boolean } = {},
  ): Promise<{ user: User; session: OpenedSession | null }> {
    await this.others.rateLimits.consume([{ key: `chatPasswordSetPerIp:${ip}`, ...PASSWORD_LIMITS.setPerIp }]);
    checkPassword(input.password, input.confirmation);
    const found = await this.find(input.token);
    return this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      if (!(await repo.claimPasswordToken(trx, found.id, now))) throw invalidLink();
      const user = await this.others.users.find(trx, found.user_id);
      if (!user) throw invalidLink();
      const updated = await this.others.users.update(trx, user, { password: input.password });
      await repo.retirePasswordTokens(trx, user.id, now);
      const session = options.signIn ? await openSession(trx, user.id, now) : null;
      return { user: updated, session };
    });
  }

  /** Housekeeping: drops links that expired a day ago or more. */
  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteExpiredPasswordTokens(this.deps.db, now - 24 * HOUR);
  }
}

/** The rules a chosen password must meet (the JSON route's schema states the same). */
export function checkPassword(password: string, confirmation: string): void {
  if (password.length < MIN_PASSWORD)
    throw invalidField('password', t('is too short (minimum is %{min} characters)', { min: MIN_PASSWORD }));
  if (password.length > MAX_PASSWORD)
    throw invalidField('password', t('is too long (maximum is %{max} characters)', { max: MAX_PASSWORD }));
  if (password !== confirmation) throw invalidField('password_confirmation', "doesn't match password");
}
