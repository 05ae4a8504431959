import { conflict, invalidField, notFound, unprocessable } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { AccountRole, Availability, User } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { UsersService } from '../users/users.service.js';
import * as repo from './agents.repository.js';
import type { AgentRow } from './agents.repository.js';
import type { AgentCreateBody, AgentUpdateBody, AvailabilityInput } from './agents.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const availability = (v: AvailabilityInput | undefined): Availability | undefined =>
  v === undefined ? undefined : v === 'available' ? 'online' : v;
const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

const lastAdministrator = () =>
  unprocessable('An account must keep at least one administrator', [
    { field: 'role', message: 'the last administrator of the account cannot be demoted or removed' },
  ]);

/** A user the agent creation has just created, to be invited to choose a password. */
export interface AgentInvitation {
  accountId: number;
  user: User;
  role: AccountRole;
  /** The administrator who created the agent. */
  invitedBy: number | null;
}

/** `queued`: the invitation e-mail is in the mail queue; `not_sent`: no way to send it (no SMTP_URL). */
export type InvitationOutcome = 'queued' | 'not_sent';

/** Invites new agents (the invitations module implements it: src/chat/modules/invitations). */
export interface AgentInvitations {
  invite(trx: Trx, invitation: AgentInvitation): Promise<InvitationOutcome>;
}

/**
 * Agents: the users who are members of an account, with their role and availability. Other
 * modules (teams, inbox members) present and validate their members through this service.
 */
export class AgentsService {
  private invitations: AgentInvitations | null = null;

  constructor(
    private readonly deps: ChatDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
  ) {}

  /** Called once by the module that sends invitations (it is built after this one). */
  useInvitations(invitations: AgentInvitations): void {
    this.invitations = invitations;
  }

  list(ctx: AccountContext): Promise<AgentRow[]> {
    return repo.listAgents(this.deps.db, ctx.accountId);
  }

  /** The agents of the account among `userIds` (one query), ordered by name. */
  byIds(q: Q, accountId: number, userIds: number[]): Promise<AgentRow[]> {
    return repo.listAgents(q, accountId, [...new Set(userIds)]);
  }

  /**
   * The agents for `userIds`, all of whom must be members of the account; otherwise a 422 that
   * names the ids that are not.
   */
  async requireMembers(q: Q, accountId: number, userIds: number[], field = 'user_ids'): Promise<AgentRow[]> {
    const agents = await this.byIds(q, accountId, userIds);
    const found = new Set(agents.map((a) => a.id));
    const missing = [...new Set(userIds)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw invalidField(field, t('are not agents of this account: %{ids}', { ids: missing.join(', ') }));
    }
    return agents;
  }

  /**
   * Adds a user to the account, creating the user when the e-mail is new. A user who is already
   * a member answers 409: the membership is a unique key (docs/spec/decisions.md §2 maps duplicates to 409).
   * A user created here is invited to choose a password in the same transaction; an existing user
   * (who may belong to another account) gets no e-mail (`invitation` null).
   */
  async create(
    ctx: AccountContext,
    body: AgentCreateBody,
  ): Promise<{ agent: AgentRow; invitation: InvitationOutcome | null }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const { user, created } = await this.users.findOrCreate(trx, { name: body.name, email: body.email });
      if (await this.accounts.membership(trx, ctx.accountId, user.id)) {
        throw conflict('This user is already an agent of this account', [
          { field: 'email', message: 'is already a member of this account' },
        ]);
      }
      const now = Date.now();
      await repo.insertMembership(trx, {
        account_id: ctx.accountId,
        user_id: user.id,
        role: body.role,
        availability: availability(body.availability ?? body.availability_status) ?? 'offline',
        auto_offline: bool(body.auto_offline) ?? 1,
        created_at: now,
        updated_at: now,
      });
      const invitation =
        created && this.invitations
          ? await this.invitations.invite(trx, {
              accountId: ctx.accountId,
              user,
              role: body.role,
              invitedBy: ctx.userId,
            })
          : null;
      return { agent: await this.getIn(trx, ctx.accountId, user.id), invitation };
    });
  }

  /** `name` changes the user; role, availability and auto_offline change the membership. */
  async update(ctx: AccountContext, userId: number, body: AgentUpdateBody): Promise<AgentRow> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (body.role === 'agent') await this.accounts.lock(trx, ctx.accountId);
      const agent = await this.getIn(trx, ctx.accountId, userId);
      if (body.role === 'agent' && agent.role === 'administrator') {
        if ((await repo.countAdministrators(trx, ctx.accountId)) <= 1) throw lastAdministrator();
      }
      if (body.name !== undefined && body.name !== agent.name) {
        const user = await this.users.find(trx, userId);
        if (user) await this.users.update(trx, user, { name: body.name });
      }
      const status = availability(body.availability ?? body.availability_status);
      const autoOffline = bool(body.auto_offline);
      if (body.role !== undefined || status !== undefined || autoOffline !== undefined) {
        await repo.updateMembership(trx, ctx.accountId, userId, {
          role: body.role,
          availability: status,
          auto_offline: autoOffline,
          updated_at: Date.now(),
        });
      }
      return this.getIn(trx, ctx.accountId, userId);
    });
  }

  /**
   * Removes the user from the account (not from the service): their inbox and team memberships
   * go, and their conversations become unassigned.
   */
  async delete(ctx: AccountContext, userId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.accounts.lock(trx, ctx.accountId);
      const agent = await this.getIn(trx, ctx.accountId, userId);
      if (agent.role === 'administrator' && (await repo.countAdministrators(trx, ctx.accountId)) <= 1) {
        throw lastAdministrator();
      }
      await this.accounts.removeMember(trx, ctx.accountId, userId);
    });
  }

  private async getIn(q: Q, accountId: number, userId: number): Promise<AgentRow> {
    const agent = await repo.findAgent(q, accountId, userId);
    if (!agent) throw notFound('Agent');
    return agent;
  }
}
