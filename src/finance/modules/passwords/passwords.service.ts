import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import { HttpError, invalidField, unauthorized } from '../../../core/http/errors.js';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import type { FinanceContext, FinanceDeps } from '../../context.js';
import { rule, type RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SessionsService, TokenPair } from '../sessions/sessions.service.js';
import type { SmtpService } from '../smtp/smtp.service.js';
import { normalizeEmail, type UsersService } from '../users/users.service.js';
import * as repo from './passwords.repository.js';
import type { ChangePasswordBody, ResetPasswordBody } from './passwords.schema.js';

/** Reset links work for one hour, once. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const invalidResetToken = () =>
  new HttpError(422, 'invalid_reset_token', 'The reset link is invalid, was already used or has expired', [
    { field: 'token', message: 'is invalid, used or expired' },
  ]);

/** Password change, forgotten-password e-mails and resets. Each ends every session of the user. */
export class PasswordsService {
  /** Reset e-mails being sent after their request answered (awaited on shutdown). */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly rateLimits: RateLimitService,
    private readonly smtp: SmtpService,
  ) {}

  /**
   * Changes the caller's password: every refresh token of the user is revoked and earlier access
   * tokens stop working; the caller gets a fresh pair for the current account.
   */
  async change(ctx: FinanceContext, body: ChangePasswordBody): Promise<TokenPair> {
    await this.rateLimits.consume([rule('passwordChangePerUser', String(ctx.userId))]);
    const user = await this.users.get(ctx.userId);
    if (!user) throw unauthorized();
    if (!(await this.users.checkPassword(user, body.currentPassword)))
      throw invalidField('currentPassword', 'is incorrect');
    const passwordHash = await this.users.hash(body.newPassword);
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await this.users.replacePassword(trx, user.id, passwordHash);
      if (!updated) throw unauthorized();
      await this.sessions.revokeAll(trx, user.id);
      await repo.retireUserResets(trx, user.id, Date.now());
      return this.sessions.issue(trx, updated, ctx.accountId, ctx.role);
    });
  }

  /**
   * Starts a reset. After the rate limit, the answer is the same and takes the same time whether or
   * not the e-mail is registered: looking the user up, recording the hashed single-use token and
   * e-mailing the link happen after the request has answered (a failure is logged; the user can ask
   * again).
   */
  async forgot(email: string, ip: string, language: Language = 'en'): Promise<void> {
    const normalized = normalizeEmail(email);
    await this.rateLimits.consume([rule('forgotPerIp', ip), rule('forgotPerEmail', normalized)]);
    const task: Promise<void> = this.sendResetLink(normalized, language)
      .catch((err) => this.deps.logger.warn({ err }, 'password reset e-mail failed'))
      .finally(() => this.sending.delete(task));
    this.sending.add(task);
  }

  /**
   * Writes the reset token and queues its e-mail in one transaction (core's durable mail queue: a
   * crash loses nothing). The mail worker sends it through SMTP_URL when the operator set one, else
   * through the SMTP server of the user's oldest membership whose account has one.
   */
  private async sendResetLink(email: string, language: Language): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomToken(32);
    const routeAccountId = await this.smtp.accountForUserMail(user.id);
    const sendable = routeAccountId !== null || this.deps.config.mail.smtpUrl !== null;
    if (!sendable)
      this.deps.logger.warn(
        { userId: user.id },
        "password reset e-mail not sent: no SMTP configuration in the user's accounts and no SMTP_URL",
      );
    const page = `${this.deps.config.finance.publicUrl}/reset-password`;
    const link = `${page}?token=${encodeURIComponent(token)}&locale=${language}`;
    await this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await repo.retireUserResets(trx, user.id, now);
      await repo.insertReset(trx, user.id, sha256Hex(token), now + RESET_TOKEN_TTL_MS, now);
      if (!sendable) return;
      await this.smtp.queue(trx, {
        accountId: routeAccountId,
        source: 'identity:password_reset',
        to: user.email,
        ...resetMail(user.full_name, link, language),
      });
    });
  }

  /** Sets a new password with a reset token (once, within the hour); ends every session. */
  async reset(body: ResetPasswordBody, ip: string): Promise<void> {
    await this.rateLimits.consume([rule('resetPerIp', ip)]);
    const tokenHash = sha256Hex(body.token);
    const found = await repo.findResetByHash(this.deps.db, tokenHash);
    if (!found || found.used_at !== null || found.expires_at <= Date.now()) throw invalidResetToken();
    const passwordHash = await this.users.hash(body.password);
    await this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      if (!(await repo.claimReset(trx, found.id, now))) throw invalidResetToken();
      // The link reached the mailbox: the address is verified.
      await this.users.replacePassword(trx, found.user_id, passwordHash, { verifiedEmail: true });
      await this.sessions.revokeAll(trx, found.user_id);
      await repo.retireUserResets(trx, found.user_id, now);
    });
  }

  /** Waits for reset links still being written (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  /** Housekeeping: drops reset tokens expired for a day or more. */
  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteExpiredResets(this.deps.db, now - 24 * 60 * 60 * 1000);
  }
}

/** The forgotten-password e-mail, in the language of the request that asked for it. */
function resetMail(name: string, link: string, language: Language): { subject: string; text: string } {
  const say = (text: Text) => render(text, language);
  return {
    subject: say('Reset your password'),
    text:
      `${say(t('Hello %{name},', { name }))}\n\n${say('Someone (hopefully you) asked to reset the password of your account.')}\n` +
      `${say('Open this link within one hour to choose a new password:')}\n\n${link}\n\n` +
      `${say('If you did not ask for it, ignore this e-mail: your password stays as it is.')}\n`,
  };
}
