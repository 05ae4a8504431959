import type { Language } from '../../../core/i18n/language.js';
import { HttpError, unauthorized } from '../../../core/http/errors.js';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import type { FinanceContext, FinanceDeps, Trx } from '../../context.js';
import type { User } from '../../db/schema.js';
import { rule, type RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SmtpService } from '../smtp/smtp.service.js';
import type { UsersService } from '../users/users.service.js';
import { verificationMail } from './email-verification.mail.js';
import * as repo from './email-verification.repository.js';

/** A verification link works for 3 days, once. */
export const VERIFICATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;

const invalidLink = () =>
  new HttpError(
    422,
    'invalid_verification_token',
    'The verification link is invalid, was already used or has expired',
    [{ field: 'token', message: 'is invalid, used or expired' }],
  );

const noWayToSend = () =>
  new HttpError(
    422,
    'smtp_not_configured',
    "No server can send the e-mail: save your account's SMTP server (POST /api/email/smtp) or ask the operator to set SMTP_URL",
  );

/**
 * E-mail verification of users who registered themselves (decisions/0031): a single-use link sent
 * when they register (through SMTP_URL, when the operator set it) or when they ask again (SMTP_URL,
 * else their own account's SMTP server). Following it marks the address verified; until then the
 * user may not invite members, so that an open registration cannot send invitations through the
 * operator's mail server to any address. Users who joined by invitation or a reset link, the
 * SuperAdmin and users made with the command line need none.
 */
export class EmailVerificationService {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly smtp: SmtpService,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** The page's link carries the e-mail's language, which the page is then shown in. */
  private link(token: string, language: Language): string {
    return `${this.deps.config.finance.publicUrl}/verify-email?token=${encodeURIComponent(token)}&locale=${language}`;
  }

  /** Queues a new link in the caller's transaction (older ones stop working); the e-mail's id. */
  private async queue(trx: Trx, user: User, accountId: number | null, language: Language): Promise<string> {
    const token = randomToken(32);
    const now = Date.now();
    await repo.retireVerifications(trx, user.id, now);
    await repo.insertVerification(trx, user.id, sha256Hex(token), now + VERIFICATION_TTL_MS, now);
    return this.smtp.queue(trx, {
      accountId,
      source: 'identity:email_verification',
      to: user.email,
      ...verificationMail(user.full_name, this.link(token, language), language),
    });
  }

  /**
   * The link of a user who has just registered, in the registration's transaction, when SMTP_URL
   * can carry it (their new account has no SMTP server yet); otherwise they ask for it later.
   */
  async onRegistered(trx: Trx, user: User, language: Language): Promise<void> {
    if (this.deps.config.mail.smtpUrl === null) {
      this.deps.logger.warn(
        { userId: user.id },
        'e-mail verification not sent at registration: SMTP_URL is not set (the user can ask again once their account has an SMTP server)',
      );
      return;
    }
    await this.queue(trx, user, null, language);
  }

  /**
   * Sends the caller a new link now (through SMTP_URL, else their account's SMTP server) and
   * answers once the server took it; `already` when the address is verified.
   */
  async resend(ctx: FinanceContext, language: Language): Promise<{ already: boolean; to: string }> {
    const user = await this.users.get(ctx.userId);
    if (!user) throw unauthorized();
    if (user.email_verified === 1) return { already: true, to: user.email };
    await this.rateLimits.consume([rule('verifyResendPerUser', String(user.id))]);
    const accountId = await this.smtp.accountForUserMail(user.id);
    if (accountId === null && this.deps.config.mail.smtpUrl === null) throw noWayToSend();
    const emailId = await this.deps.db.transaction().execute((trx) => this.queue(trx, user, accountId, language));
    await this.smtp.deliverNow(emailId);
    return { already: false, to: user.email };
  }

  /** Follows a link: the address of its user is verified (once, before it expires). */
  async verify(token: string, ip: string): Promise<User> {
    await this.rateLimits.consume([rule('verifyPerIp', ip)]);
    const user = await this.deps.db.transaction().execute(async (trx) => {
      const userId = await repo.claimVerification(trx, sha256Hex(token), Date.now());
      if (userId === undefined) throw invalidLink();
      await this.users.markEmailVerified(trx, userId);
      return this.users.get(userId, trx);
    });
    if (!user) throw invalidLink();
    return user;
  }

  /** Housekeeping: drops links expired for a day or more. */
  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteVerificationsExpiredBefore(this.deps.db, now - 24 * 60 * 60 * 1000);
  }
}
