import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, Nullable } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import { isAdmin } from '../../context.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgentBot } from '../agent-bots/agent-bots.presenter.js';
import { AgentBotSchema } from '../agent-bots/agent-bots.schema.js';
import { presentDelivery } from '../webhooks/webhooks.presenter.js';
import { DeliveriesQuery, DeliverySchema } from '../webhooks/webhooks.schema.js';
import { presentInbox } from './inboxes.presenter.js';
import { InboxCreateBody, InboxSchema, InboxUpdateBody } from './inboxes.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['inboxes'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const InboxParams = Type.Object({ accountId: IdParam, id: IdParam });
const DELIVERIES_PAGE = 25;

export const inboxesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.inboxes;

  app.get(
    `${A}/inboxes`,
    {
      schema: {
        tags,
        security,
        summary: 'List inboxes (agents see their own)',
        params: AccountParams,
        response: { 200: Type.Object({ payload: Type.Array(InboxSchema) }), ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      return { payload: (await svc.list(ctx)).map((i) => presentInbox(i, isAdmin(ctx))) };
    },
  );

  app.get(
    `${A}/inboxes/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show an inbox',
        params: InboxParams,
        response: { 200: InboxSchema, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      return presentInbox(await svc.get(ctx, req.params.id), isAdmin(ctx));
    },
  );

  app.get(
    `${A}/inboxes/:id/agent_bot`,
    {
      schema: {
        tags,
        security,
        summary: 'The agent bot connected to the inbox, or null (Chatwoot: {agent_bot})',
        params: InboxParams,
        response: { 200: Type.Object({ agent_bot: Nullable(AgentBotSchema) }), ...errors },
      },
    },
    async (req) => {
      const inbox = await svc.get(ctxOf(req), req.params.id);
      if (inbox.agent_bot_id === null) return { agent_bot: null };
      const [bot] = await services.agentBots.listByIds([inbox.agent_bot_id]);
      return { agent_bot: bot ? presentAgentBot(bot) : null };
    },
  );

  app.get(
    `${A}/inboxes/:id/webhook_deliveries`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: "Recent deliveries to an API inbox's webhook_url, newest first (25 per page; administrators)",
        params: InboxParams,
        querystring: DeliveriesQuery,
        response: {
          200: Type.Object({
            meta: Type.Object({ current_page: Type.Integer() }),
            payload: Type.Array(DeliverySchema),
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const page = req.query.page ?? 1;
      const deliveries = await svc.webhookDeliveries(ctxOf(req), req.params.id, {
        limit: DELIVERIES_PAGE,
        offset: (page - 1) * DELIVERIES_PAGE,
      });
      return { meta: { current_page: page }, payload: deliveries.map(presentDelivery) };
    },
  );

  app.post(
    `${A}/inboxes`,
    {
      config: { adminOnly: true, bodyKey: 'inbox' },
      schema: {
        tags,
        security,
        summary: 'Create an inbox with its channel',
        params: AccountParams,
        body: InboxCreateBody,
        response: { 200: InboxSchema, ...errors },
      },
    },
    async (req) => presentInbox(await svc.create(ctxOf(req), req.body), true),
  );

  app.patch(
    `${A}/inboxes/:id`,
    {
      config: { adminOnly: true, bodyKey: 'inbox' },
      schema: {
        tags,
        security,
        summary: 'Update an inbox',
        params: InboxParams,
        body: InboxUpdateBody,
        response: { 200: InboxSchema, ...errors },
      },
    },
    async (req) => presentInbox(await svc.update(ctxOf(req), req.params.id, req.body), true),
  );

  app.delete(
    `${A}/inboxes/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete an inbox with all its conversations and messages',
        params: InboxParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
