import { HttpError, notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { MembershipRole } from '../../db/schema.js';
import type { AccountsService, Page } from '../accounts/accounts.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { UsersService } from '../users/users.service.js';
import type { MemberView } from './members.presenter.js';

const lastAdmin = () => new HttpError(422, 'last_admin', 'An account must keep at least one administrator');

/**
 * The members of the caller's account (administrators only, see the routes). Members join only by
 * accepting an invitation (modules/invitations): an administrator never creates a user, sets a
 * password or adds an existing user without their consent.
 */
export class MembersService {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
  ) {}

  async list(ctx: FinanceContext, page: Page): Promise<{ members: MemberView[]; total: number }> {
    const { rows, total } = await this.accounts.members(ctx.accountId, page);
    return { members: rows, total };
  }

  async updateRole(ctx: FinanceContext, userId: number, role: MembershipRole): Promise<MemberView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const membership = await this.requireMember(trx, ctx.accountId, userId);
      if (membership.role === 'admin' && role !== 'admin') await this.assertNotLastAdmin(trx, ctx.accountId);
      await this.accounts.setRole(trx, ctx.accountId, userId, role);
      const user = (await this.users.get(userId, trx))!;
      return { ...user, role, joined_at: membership.created_at };
    });
  }

  /** Removes a member (not the last administrator); their sessions in this account end. */
  async remove(ctx: FinanceContext, userId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const membership = await this.requireMember(trx, ctx.accountId, userId);
      if (membership.role === 'admin') await this.assertNotLastAdmin(trx, ctx.accountId);
      await this.accounts.removeMember(trx, ctx.accountId, userId);
      await this.sessions.revokeAll(trx, userId, ctx.accountId);
    });
  }

  private async requireMember(q: Q, accountId: number, userId: number) {
    const membership = await this.accounts.membership(accountId, userId, q);
    if (!membership) throw notFound('Member');
    return membership;
  }

  private async assertNotLastAdmin(q: Q, accountId: number) {
    const admins = await this.accounts.lockAdmins(q, accountId);
    if (admins.length <= 1) throw lastAdmin();
  }
}
