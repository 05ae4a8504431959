import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgentBot } from './agent-bots.presenter.js';
import { AgentBotBody, AgentBotPatch, AgentBotSchema, SetInboxBotBody } from './agent-bots.schema.js';

const A = '/api/v1/accounts/:accountId';
const P = '/platform/api/v1';
const tags = ['agent bots'];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const BotParams = Type.Object({ accountId: IdParam, id: IdParam });
const admin = { adminOnly: true, bodyKey: 'agent_bot' };

export const agentBotsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.agentBots;
  const withToken = async (bot: Awaited<ReturnType<typeof svc.get>>) =>
    presentAgentBot(bot, (await svc.accessToken(bot.id)) ?? '');
  const security = [{ userApiKey: [] }];

  app.get(
    `${A}/agent_bots`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: "List the account's agent bots",
        params: AccountParams,
        response: { 200: Type.Array(AgentBotSchema), ...errors },
      },
    },
    async (req) => (await svc.list(ctxOf(req))).map((b) => presentAgentBot(b)),
  );

  app.post(
    `${A}/agent_bots`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create an agent bot (the response carries its access_token)',
        params: AccountParams,
        body: AgentBotBody,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => withToken(await svc.create(ctxOf(req).accountId, req.body)),
  );

  app.get(
    `${A}/agent_bots/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Show an agent bot with its access token',
        params: BotParams,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => withToken(await svc.get(ctxOf(req).accountId, req.params.id)),
  );

  app.patch(
    `${A}/agent_bots/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Update an agent bot',
        params: BotParams,
        body: AgentBotPatch,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => presentAgentBot(await svc.update(ctxOf(req).accountId, req.params.id, req.body)),
  );

  app.delete(
    `${A}/agent_bots/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete an agent bot',
        params: BotParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req).accountId, req.params.id);
      return {};
    },
  );

  app.post(
    `${A}/inboxes/:id/set_agent_bot`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Connect an agent bot to an inbox (null disconnects)',
        params: BotParams,
        body: SetInboxBotBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.setInboxBot(ctxOf(req), req.params.id, req.body.agent_bot);
      return {};
    },
  );

  // Global bots, managed through the platform interface by the app that created them.
  const platform = { auth: 'platform' as const, bodyKey: 'agent_bot' };
  const platformSecurity = [{ platformAppApiKey: [] }];
  const PlatformBotParams = Type.Object({ id: IdParam });
  const appIdOf = (actor: unknown) => (actor as { platformAppId: number }).platformAppId;
  const plat = services.platform;

  app.get(
    `${P}/agent_bots`,
    {
      config: platform,
      schema: {
        tags,
        security: platformSecurity,
        summary: 'List the global agent bots this app created',
        response: { 200: Type.Array(AgentBotSchema), ...errors },
      },
    },
    async (req) => (await plat.listBots(appIdOf(req.actor))).map((b) => presentAgentBot(b)),
  );

  app.post(
    `${P}/agent_bots`,
    {
      config: platform,
      schema: {
        tags,
        security: platformSecurity,
        summary: 'Create a global agent bot',
        body: AgentBotBody,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => withToken(await plat.createBot(appIdOf(req.actor), req.body)),
  );

  app.get(
    `${P}/agent_bots/:id`,
    {
      config: platform,
      schema: {
        tags,
        security: platformSecurity,
        summary: 'Show a global agent bot',
        params: PlatformBotParams,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => withToken(await plat.getBot(appIdOf(req.actor), req.params.id)),
  );

  app.patch(
    `${P}/agent_bots/:id`,
    {
      config: platform,
      schema: {
        tags,
        security: platformSecurity,
        summary: 'Update a global agent bot',
        params: PlatformBotParams,
        body: AgentBotPatch,
        response: { 200: AgentBotSchema, ...errors },
      },
    },
    async (req) => presentAgentBot(await plat.updateBot(appIdOf(req.actor), req.params.id, req.body)),
  );

  app.delete(
    `${P}/agent_bots/:id`,
    {
      config: platform,
      schema: {
        tags,
        security: platformSecurity,
        summary: 'Delete a global agent bot',
        params: PlatformBotParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await plat.deleteBot(appIdOf(req.actor), req.params.id);
      return {};
    },
  );
};
