import { conflict, invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { Team } from '../../db/schema.js';
import type { AgentRow } from '../agents/agents.repository.js';
import type { AgentsService } from '../agents/agents.service.js';
import * as repo from './teams.repository.js';
import type { TeamCreateBody, TeamUpdateBody } from './teams.schema.js';

export interface TeamView {
  team: Team;
  /** Whether the calling user is a member of the team. */
  isMember: boolean;
}

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidField('name', "can't be blank");
  return trimmed;
}

const duplicateName = () =>
  conflict('A team with this name already exists in this account', [
    { field: 'name', message: 'has already been taken' },
  ]);

/** Teams of agents; conversations can be assigned to a team. Members read, administrators write. */
export class TeamsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly agents: AgentsService,
  ) {}

  async list(ctx: AccountContext): Promise<TeamView[]> {
    const [teams, mine] = await Promise.all([
      repo.listTeams(this.deps.db, ctx.accountId),
      this.myTeamIds(this.deps.db, ctx),
    ]);
    return teams.map((team) => ({ team, isMember: mine.has(team.id) }));
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<TeamView> {
    const team = await this.find(q, ctx.accountId, id);
    return { team, isMember: (await this.myTeamIds(q, ctx)).has(team.id) };
  }

  /** Names are unique per account regardless of case: "Sales" and "sales" are the same team (409). */
  async create(ctx: AccountContext, body: TeamCreateBody): Promise<TeamView> {
    const name = cleanName(body.name);
    const team = await this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findTeamByName(trx, ctx.accountId, name)) throw duplicateName();
      const now = Date.now();
      return repo.insertTeam(trx, {
        account_id: ctx.accountId,
        name,
        description: body.description ?? null,
        allow_auto_assign: bool(body.allow_auto_assign) ?? 1,
        created_at: now,
        updated_at: now,
      });
    });
    return { team, isMember: false };
  }

  async update(ctx: AccountContext, id: number, body: TeamUpdateBody): Promise<TeamView> {
    const name = body.name === undefined ? undefined : cleanName(body.name);
    const team = await this.deps.db.transaction().execute(async (trx) => {
      const team = await this.find(trx, ctx.accountId, id);
      if (name !== undefined) {
        const other = await repo.findTeamByName(trx, ctx.accountId, name);
        if (other && other.id !== team.id) throw duplicateName();
      }
      const updated = await repo.updateTeam(trx, ctx.accountId, id, {
        name,
        description: body.description,
        allow_auto_assign: bool(body.allow_auto_assign),
        updated_at: Date.now(),
      });
      return updated ?? team;
    });
    return { team, isMember: (await this.myTeamIds(this.deps.db, ctx)).has(team.id) };
  }

  /** Deletes the team; conversations assigned to it become unassigned (same transaction). */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.find(trx, ctx.accountId, id);
      await repo.deleteTeam(trx, ctx.accountId, id);
    });
  }

  async members(ctx: AccountContext, teamId: number): Promise<AgentRow[]> {
    const team = await this.find(this.deps.db, ctx.accountId, teamId);
    const ids = await repo.teamMemberIds(this.deps.db, ctx.accountId, team.id);
    return this.agents.byIds(this.deps.db, ctx.accountId, ids);
  }

  /** Adds agents (idempotent); returns the requested agents, newly added or already present. */
  async addMembers(ctx: AccountContext, teamId: number, userIds: number[]): Promise<AgentRow[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const team = await this.find(trx, ctx.accountId, teamId);
      const agents = await this.agents.requireMembers(trx, ctx.accountId, userIds);
      await repo.addTeamMembers(
        trx,
        ctx.accountId,
        team.id,
        agents.map((a) => a.id),
      );
      return agents;
    });
  }

  /** Makes `userIds` the team's exact member set (Chatwoot's PATCH); returns all members. */
  async replaceMembers(ctx: AccountContext, teamId: number, userIds: number[]): Promise<AgentRow[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const team = await this.find(trx, ctx.accountId, teamId);
      const agents = await this.agents.requireMembers(trx, ctx.accountId, userIds);
      const wanted = new Set(agents.map((a) => a.id));
      const current = await repo.teamMemberIds(trx, ctx.accountId, team.id);
      await repo.removeTeamMembers(
        trx,
        ctx.accountId,
        team.id,
        current.filter((id) => !wanted.has(id)),
      );
      await repo.addTeamMembers(trx, ctx.accountId, team.id, [...wanted]);
      return agents;
    });
  }

  async removeMembers(ctx: AccountContext, teamId: number, userIds: number[]): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const team = await this.find(trx, ctx.accountId, teamId);
      await this.agents.requireMembers(trx, ctx.accountId, userIds);
      await repo.removeTeamMembers(trx, ctx.accountId, team.id, [...new Set(userIds)]);
    });
  }

  private async find(q: Q, accountId: number, id: number): Promise<Team> {
    const team = await repo.findTeam(q, accountId, id);
    if (!team) throw notFound('Team');
    return team;
  }

  private async myTeamIds(q: Q, ctx: AccountContext): Promise<Set<number>> {
    if (ctx.userId === null) return new Set();
    return new Set(await repo.teamIdsOfUser(q, ctx.accountId, ctx.userId));
  }
}
