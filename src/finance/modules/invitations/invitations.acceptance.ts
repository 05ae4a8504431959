import { HttpError, conflict, invalidField } from '../../../core/http/errors.js';
import { sha256Hex } from '../../../core/security/tokens.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SessionView } from '../auth/auth.presenter.js';
import { rule, type RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { UsersService } from '../users/users.service.js';
import type { InvitationPreview } from './invitations.presenter.js';
import * as repo from './invitations.repository.js';
import type { AcceptInvitationBody } from './invitations.schema.js';

type FoundInvitation = NonNullable<Awaited<ReturnType<typeof repo.findByTokenHash>>>;

/** One answer for an unknown, used, revoked or expired link: the caller learns nothing more. */
export const invalidInvitation = () =>
  new HttpError(
    422,
    'invalid_invitation',
    'The invitation link is invalid, was already used, was revoked or has expired',
    [{ field: 'token', message: 'is invalid, used, revoked or expired' }],
  );

const usable = (row: FoundInvitation | undefined, now: number): row is FoundInvitation =>
  row !== undefined && row.status === 'pending' && row.expires_at > now;

/**
 * The invitee's side: what a link shows, and accepting it. The token (from the e-mail) proves only
 * that its holder can read that mailbox, so:
 * - an address without a user gets one, with the password and name the holder chooses;
 * - an address that already has a user is joined only by that user, signed in (Bearer token):
 *   the link never sets or bypasses an existing user's password.
 */
export class InvitationAcceptance {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** The accept page: account, address, role, and whether a password must be chosen. */
  async preview(token: string, ip: string): Promise<InvitationPreview> {
    await this.rateLimits.consume([rule('invitationLookupPerIp', ip)]);
    const invitation = await repo.findByTokenHash(this.deps.db, sha256Hex(token));
    if (!usable(invitation, Date.now())) throw invalidInvitation();
    const user = await this.users.findByEmail(invitation.email);
    return { invitation, passwordRequired: user === undefined };
  }

  /** Accepts the invitation; the answer is a session in the invited account. */
  async accept(body: AcceptInvitationBody, caller: FinanceContext | undefined, ip: string): Promise<SessionView> {
    await this.rateLimits.consume([rule('invitationAcceptPerIp', ip)]);
    const invitation = await repo.findByTokenHash(this.deps.db, sha256Hex(body.token));
    if (!usable(invitation, Date.now())) throw invalidInvitation();
    const existing = await this.users.findByEmail(invitation.email);
    return existing
      ? this.joinAsSignedInUser(invitation, existing, body, caller)
      : this.joinAsNewUser(invitation, body);
  }

  private async joinAsSignedInUser(
    invitation: FoundInvitation,
    user: User,
    body: AcceptInvitationBody,
    caller: FinanceContext | undefined,
  ) {
    if (!caller) {
      throw new HttpError(
        401,
        'sign_in_required',
        'This invitation is for an address that already has a user: sign in as that user, then accept it with your access token',
      );
    }
    if (caller.userId !== user.id) {
      throw new HttpError(
        403,
        'wrong_user',
        'You are signed in as another user: sign in with the invited e-mail address to accept this invitation',
      );
    }
    if (body.password !== undefined) {
      throw new HttpError(
        422,
        'password_not_allowed',
        'Accepting an invitation never changes the password of an existing user: send it without password (PUT /api/auth/password changes it)',
        [{ field: 'password', message: 'is not accepted for an existing user' }],
      );
    }
    return this.join(invitation, async (trx) => {
      await this.users.markEmailVerified(trx, user.id);
      return (await this.users.get(user.id, trx)) ?? user;
    });
  }

  private async joinAsNewUser(invitation: FoundInvitation, body: AcceptInvitationBody) {
    if (body.password === undefined)
      throw invalidField('password', 'is required: choose the password of your new user (8 characters or more)');
    const fullName = body.fullName?.trim() ?? '';
    if (fullName === '') throw invalidField('fullName', 'is required to create your user');
    const passwordHash = await this.users.hash(body.password);
    return this.join(invitation, async (trx) => {
      // A user of this address may have appeared since the look-up (another invitation, a registration).
      if (await this.users.findByEmail(invitation.email, trx)) {
        throw conflict(
          'A user with this e-mail address now exists: sign in as that user and accept the invitation again',
        );
      }
      // The link reached the mailbox: the address is verified.
      return this.users.create(trx, { email: invitation.email, fullName, passwordHash, emailVerified: true });
    });
  }

  /** Claims the invitation (once), then the user joins the account and gets a session there. */
  private join(invitation: FoundInvitation, userOf: (trx: Q) => Promise<User>): Promise<SessionView> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.claimInvitation(trx, invitation.id, invitation.token_hash, Date.now())))
        throw invalidInvitation();
      const user = await userOf(trx);
      const membership = await this.accounts.membership(invitation.account_id, user.id, trx);
      const role =
        membership?.role ?? (await this.accounts.addMember(trx, invitation.account_id, user.id, invitation.role)).role;
      await repo.setAcceptedBy(trx, invitation.id, user.id);
      const pair = await this.sessions.issue(trx, user, invitation.account_id, role);
      return { pair, user, role, account: { id: invitation.account_id, name: invitation.account_name } };
    });
  }
}
