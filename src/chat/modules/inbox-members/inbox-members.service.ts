import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { AgentRow } from '../agents/agents.repository.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import * as repo from './inbox-members.repository.js';

/**
 * The agents of an inbox. Membership decides what an agent sees: InboxesService.visibleInboxIds
 * limits agents to the inboxes they are members of.
 */
export class InboxMembersService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly inboxes: InboxesService,
    private readonly agents: AgentsService,
  ) {}

  /** The members of an inbox the caller may see (agents: only their own inboxes; 404 otherwise). */
  async list(ctx: AccountContext, inboxId: number): Promise<AgentRow[]> {
    const inbox = await this.inboxes.get(ctx, inboxId);
    return this.membersOf(this.deps.db, ctx.accountId, inbox.id);
  }

  /** Adds agents (idempotent); returns all members of the inbox. */
  async add(ctx: AccountContext, inboxId: number, userIds: number[]): Promise<AgentRow[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const inbox = await this.inboxes.get(ctx, inboxId, trx);
      const agents = await this.agents.requireMembers(trx, ctx.accountId, userIds);
      await repo.addInboxMembers(
        trx,
        ctx.accountId,
        inbox.id,
        agents.map((a) => a.id),
      );
      return this.membersOf(trx, ctx.accountId, inbox.id);
    });
  }

  /** Makes `userIds` the inbox's exact member set; returns all members. */
  async replace(ctx: AccountContext, inboxId: number, userIds: number[]): Promise<AgentRow[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const inbox = await this.inboxes.get(ctx, inboxId, trx);
      const agents = await this.agents.requireMembers(trx, ctx.accountId, userIds);
      const wanted = new Set(agents.map((a) => a.id));
      const current = await repo.inboxMemberIds(trx, ctx.accountId, inbox.id);
      await repo.removeInboxMembers(
        trx,
        ctx.accountId,
        inbox.id,
        current.filter((id) => !wanted.has(id)),
      );
      await repo.addInboxMembers(trx, ctx.accountId, inbox.id, [...wanted]);
      return agents;
    });
  }

  async remove(ctx: AccountContext, inboxId: number, userIds: number[]): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const inbox = await this.inboxes.get(ctx, inboxId, trx);
      await this.agents.requireMembers(trx, ctx.accountId, userIds);
      await repo.removeInboxMembers(trx, ctx.accountId, inbox.id, [...new Set(userIds)]);
    });
  }

  private async membersOf(q: Q, accountId: number, inboxId: number): Promise<AgentRow[]> {
    return this.agents.byIds(q, accountId, await repo.inboxMemberIds(q, accountId, inboxId));
  }
}
