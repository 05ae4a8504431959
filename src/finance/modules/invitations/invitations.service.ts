import { HttpError, conflict, notFound } from '../../../core/http/errors.js';
import { t } from '../../../core/i18n/catalogue.js';
import { randomToken, sha256Hex } from '../../../core/security/tokens.js';
import type { FinanceContext, FinanceDeps, Trx } from '../../context.js';
import type { Invitation } from '../../db/schema.js';
import type { AccountsService, Page } from '../accounts/accounts.service.js';
import { smtpNotConfigured, type SmtpService } from '../smtp/smtp.service.js';
import { normalizeEmail, type UsersService } from '../users/users.service.js';
import { invitationMail } from './invitations.mail.js';
import type { InvitationView } from './invitations.presenter.js';
import * as repo from './invitations.repository.js';
import type { InvitationListQuery, InviteBody } from './invitations.schema.js';

/** Invitation links work for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Rows are kept this long after they expire (the list shows them), then housekeeping drops them. */
const KEEP_AFTER_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;

const passwordNotAllowed = () =>
  new HttpError(
    422,
    'password_not_allowed',
    'Administrators can no longer set passwords: members are invited by e-mail and choose their own password when they accept. Send only email and role.',
    [{ field: 'password', message: 'is not accepted' }],
  );

const alreadyMember = () =>
  conflict('This address is already a member of the account', [{ field: 'email', message: 'is already a member' }]);

const invalidTransition = (status: string) =>
  new HttpError(409, 'invalid_transition', t('The invitation is %{status}', { status }), [
    { field: 'status', message: t('is %{status}', { status }) },
  ]);

const emailNotVerified = (email: string) =>
  new HttpError(
    403,
    'email_not_verified',
    t(
      'Verify your e-mail address before inviting members: follow the link sent to %{email} (POST /api/auth/verify-email/resend sends a new one)',
      { email },
    ),
  );

const termsOf = (row: Invitation): repo.InvitationTerms => ({
  token_hash: row.token_hash,
  expires_at: row.expires_at,
  role: row.role,
  invited_by: row.invited_by,
  updated_at: row.updated_at,
});

/**
 * The administrators' side of invitations: invite (POST /api/accounts/members), list, resend and
 * revoke, always within the caller's account. Nothing here creates a user or a membership: that
 * happens only when the invitee accepts (InvitationAcceptance).
 *
 * The e-mail is queued with the invitation (durable: core's mail queue) and sent right after the
 * commit through SMTP_URL when the operator set one, else the account's own SMTP server (see
 * SmtpService.transportFor). An invite or resend answers success only once the SMTP server took the
 * e-mail: with no way to send it is refused up front (422 smtp_not_configured), and when sending
 * fails the change is undone (a new invitation is deleted, a renewed one gets its earlier link back)
 * before the 422 smtp_send_failed.
 */
export class InvitationsService {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly accounts: AccountsService,
    private readonly smtp: SmtpService,
    private readonly users: UsersService,
  ) {}

  /**
   * Who registered themselves invites only once their address is verified (decisions/0031): an
   * open registration must not be a way to e-mail any address through the operator's server. The
   * SuperAdmin, and users who joined by invitation or were made with the command line, are verified
   * or trusted already.
   */
  private async requireVerifiedInviter(ctx: FinanceContext): Promise<void> {
    const user = await this.users.get(ctx.userId);
    if (user && user.email_verified !== 1 && user.is_super_admin !== 1) throw emailNotVerified(user.email);
  }

  async list(
    ctx: FinanceContext,
    query: InvitationListQuery & Page,
  ): Promise<{ rows: InvitationView[]; total: number }> {
    const now = Date.now();
    const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
    const [rows, total] = await Promise.all([
      repo.listInvitations(this.deps.db, ctx.accountId, query.status, now, page),
      repo.countInvitations(this.deps.db, ctx.accountId, query.status, now),
    ]);
    return { rows, total };
  }

  /**
   * Invites an address with a role. The answer is the same whether or not the address has a user.
   * A pending invitation of the same address is renewed instead (same id, new link and expiry, the
   * new role, the caller as inviter): its earlier link stops working.
   */
  async invite(ctx: FinanceContext, body: InviteBody): Promise<{ invitation: InvitationView; renewed: boolean }> {
    if (body.password !== undefined) throw passwordNotAllowed();
    await this.requireVerifiedInviter(ctx);
    const email = normalizeEmail(body.email);
    if (await this.accounts.isMemberByEmail(ctx.accountId, email)) throw alreadyMember();
    if (!(await this.smtp.canSendIdentityMail(ctx.accountId))) throw smtpNotConfigured();
    const token = randomToken(32);
    const now = Date.now();
    const terms: repo.InvitationTerms = {
      token_hash: sha256Hex(token),
      expires_at: now + INVITATION_TTL_MS,
      role: body.role,
      invited_by: ctx.userId,
      updated_at: now,
    };
    const { id, earlier, emailId } = await this.deps.db.transaction().execute(async (trx) => {
      const pending = await repo.findPendingByEmail(trx, ctx.accountId, email);
      if (pending && (await repo.renewInvitation(trx, ctx.accountId, pending.id, terms))) {
        return {
          id: pending.id,
          earlier: termsOf(pending),
          emailId: await this.queueMail(trx, ctx, pending.id, token),
        };
      }
      const values = {
        ...terms,
        account_id: ctx.accountId,
        email,
        status: 'pending' as const,
        accepted_by: null,
        accepted_at: null,
        revoked_at: null,
        created_at: now,
      };
      const created = await repo.insertInvitation(trx, values);
      return { id: created, earlier: null, emailId: await this.queueMail(trx, ctx, created, token) };
    });
    const invitation = await this.deliver(ctx.accountId, id, emailId, terms.token_hash, earlier);
    return { invitation, renewed: earlier !== null };
  }

  /** A new link and a new expiry for a pending (or expired) invitation, e-mailed again; the old link dies. */
  async resend(ctx: FinanceContext, id: number): Promise<InvitationView> {
    const current = await this.require(ctx.accountId, id);
    if (current.status !== 'pending') throw invalidTransition(current.status);
    await this.requireVerifiedInviter(ctx);
    if (!(await this.smtp.canSendIdentityMail(ctx.accountId))) throw smtpNotConfigured();
    const token = randomToken(32);
    const now = Date.now();
    const terms = {
      ...termsOf(current),
      token_hash: sha256Hex(token),
      expires_at: now + INVITATION_TTL_MS,
      updated_at: now,
    };
    const emailId = await this.deps.db
      .transaction()
      .execute(async (trx) =>
        (await repo.renewInvitation(trx, ctx.accountId, id, terms)) ? this.queueMail(trx, ctx, id, token) : null,
      );
    if (emailId === null) throw invalidTransition((await this.require(ctx.accountId, id)).status);
    return this.deliver(ctx.accountId, id, emailId, terms.token_hash, termsOf(current));
  }

  /** Revokes a pending (or expired) invitation: its link stops working. Accepted or revoked: 409. */
  async revoke(ctx: FinanceContext, id: number): Promise<void> {
    const current = await this.require(ctx.accountId, id);
    if (current.status !== 'pending') throw invalidTransition(current.status);
    const revoked = await this.deps.db
      .transaction()
      .execute((trx) => repo.revokeInvitation(trx, ctx.accountId, id, Date.now()));
    if (!revoked) throw invalidTransition((await this.require(ctx.accountId, id)).status);
  }

  /** Housekeeping: drops invitations expired for 30 days or more (whatever their status). */
  purgeExpired(now = Date.now()): Promise<number> {
    return repo.deleteInvitationsExpiredBefore(this.deps.db, now - KEEP_AFTER_EXPIRY_MS);
  }

  private async require(accountId: number, id: number): Promise<InvitationView> {
    const row = await repo.findInvitation(this.deps.db, accountId, id);
    if (!row) throw notFound('Invitation');
    return row;
  }

  /** Queues the invitation's e-mail with its link, in the transaction that wrote the invitation. */
  private async queueMail(trx: Trx, ctx: FinanceContext, id: number, token: string): Promise<string> {
    const { accountId } = ctx;
    const invitation = (await repo.findInvitation(trx, accountId, id))!;
    const account = await this.accounts.get(accountId, trx);
    // In the inviting administrator's language (their request's), else the account's; the link
    // carries it to the accept page.
    const language = ctx.language ?? account?.locale ?? 'en';
    const page = `${this.deps.config.finance.publicUrl}/accept-invitation`;
    const mail = invitationMail({
      to: invitation.email,
      accountName: account?.name ?? '',
      inviterName: invitation.inviter_name,
      role: invitation.role,
      link: `${page}?token=${encodeURIComponent(token)}&locale=${language}`,
      language,
    });
    return this.smtp.queue(trx, { ...mail, accountId, source: `identity:invitation:${id}` });
  }

  /**
   * Sends the queued e-mail now, so the answer can say it went out. If the SMTP server refuses,
   * the write is undone: a new invitation is removed, a renewed one gets `earlier` back. (If the
   * process dies first, the e-mail stays queued and the mail worker sends it: nothing is lost.)
   */
  private async deliver(
    accountId: number,
    id: number,
    emailId: string,
    tokenHash: string,
    earlier: repo.InvitationTerms | null,
  ): Promise<InvitationView> {
    try {
      await this.smtp.deliverNow(emailId);
    } catch (err) {
      await this.deps.db.transaction().execute(async (trx) => {
        if (earlier) await repo.restoreInvitation(trx, id, tokenHash, earlier);
        else await repo.deletePendingInvitation(trx, id, tokenHash);
      });
      throw err;
    }
    return this.require(accountId, id);
  }
}
