import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgent, presentCreatedAgent } from './agents.presenter.js';
import { AgentCreateBody, AgentSchema, AgentUpdateBody, CreatedAgentSchema } from './agents.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['agents'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const AgentParams = Type.Object({ accountId: IdParam, id: IdParam });

export const agentsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.agents;

  app.get(
    `${A}/agents`,
    {
      schema: {
        tags,
        security,
        summary: 'List the agents of the account',
        params: AccountParams,
        response: { 200: Type.Array(AgentSchema), ...errors },
      },
    },
    async (req) => (await svc.list(ctxOf(req))).map(presentAgent),
  );

  app.post(
    `${A}/agents`,
    {
      config: { adminOnly: true, bodyKey: 'agent' },
      schema: {
        tags,
        security,
        summary:
          'Add an agent (the user is created when the e-mail is new, and then e-mailed a link to choose a password through SMTP_URL)',
        params: AccountParams,
        body: AgentCreateBody,
        response: { 200: CreatedAgentSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const { agent, invitation } = await svc.create(ctxOf(req), req.body);
      // Without SMTP_URL the new agent gets no invitation: the operator sets a password (cli chat:reset-password).
      if (invitation === 'not_sent')
        req.log.warn(
          { userId: agent.id },
          'agent invitation not sent: SMTP_URL is not set (node dist/cli.js chat:reset-password sets a password)',
        );
      return presentCreatedAgent(agent, invitation);
    },
  );

  app.patch(
    `${A}/agents/:id`,
    {
      config: { adminOnly: true, bodyKey: 'agent' },
      schema: {
        tags,
        security,
        summary: 'Update an agent (id is the user id)',
        params: AgentParams,
        body: AgentUpdateBody,
        response: { 200: AgentSchema, ...errors },
      },
    },
    async (req) => presentAgent(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/agents/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Remove an agent from the account',
        params: AgentParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
