import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgent } from '../agents/agents.presenter.js';
import { AgentSchema } from '../agents/agents.schema.js';
import { presentTeam } from './teams.presenter.js';
import { TeamCreateBody, TeamMembersBody, TeamMembersReplaceBody, TeamSchema, TeamUpdateBody } from './teams.schema.js';
import type { TeamView } from './teams.service.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['teams'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const TeamParams = Type.Object({ accountId: IdParam, team_id: IdParam });
const Members = Type.Array(AgentSchema);
const present = (v: TeamView) => presentTeam(v.team, v.isMember);

export const teamsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.teams;

  app.get(
    `${A}/teams`,
    {
      schema: {
        tags,
        security,
        summary: 'List teams',
        params: AccountParams,
        response: { 200: Type.Array(TeamSchema), ...errors },
      },
    },
    async (req) => (await svc.list(ctxOf(req))).map(present),
  );

  app.get(
    `${A}/teams/:team_id`,
    {
      schema: { tags, security, summary: 'Show a team', params: TeamParams, response: { 200: TeamSchema, ...errors } },
    },
    async (req) => present(await svc.get(ctxOf(req), req.params.team_id)),
  );

  app.post(
    `${A}/teams`,
    {
      config: { adminOnly: true, bodyKey: 'team' },
      schema: {
        tags,
        security,
        summary: 'Create a team',
        params: AccountParams,
        body: TeamCreateBody,
        response: { 200: TeamSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => present(await svc.create(ctxOf(req), req.body)),
  );

  app.patch(
    `${A}/teams/:team_id`,
    {
      config: { adminOnly: true, bodyKey: 'team' },
      schema: {
        tags,
        security,
        summary: 'Update a team',
        params: TeamParams,
        body: TeamUpdateBody,
        response: { 200: TeamSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => present(await svc.update(ctxOf(req), req.params.team_id, req.body)),
  );

  app.delete(
    `${A}/teams/:team_id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a team; its conversations become unassigned',
        params: TeamParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.team_id);
      return {};
    },
  );

  app.get(
    `${A}/teams/:team_id/team_members`,
    {
      schema: {
        tags,
        security,
        summary: 'List the agents of a team',
        params: TeamParams,
        response: { 200: Members, ...errors },
      },
    },
    async (req) => (await svc.members(ctxOf(req), req.params.team_id)).map(presentAgent),
  );

  app.post(
    `${A}/teams/:team_id/team_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Add agents to a team (idempotent)',
        params: TeamParams,
        body: TeamMembersBody,
        response: { 200: Members, ...errors },
      },
    },
    async (req) => (await svc.addMembers(ctxOf(req), req.params.team_id, req.body.user_ids)).map(presentAgent),
  );

  app.patch(
    `${A}/teams/:team_id/team_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: "Replace a team's agents",
        params: TeamParams,
        body: TeamMembersReplaceBody,
        response: { 200: Members, ...errors },
      },
    },
    async (req) => (await svc.replaceMembers(ctxOf(req), req.params.team_id, req.body.user_ids)).map(presentAgent),
  );

  app.delete(
    `${A}/teams/:team_id/team_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Remove agents from a team',
        params: TeamParams,
        body: TeamMembersBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.removeMembers(ctxOf(req), req.params.team_id, req.body.user_ids);
      return {};
    },
  );
};
