import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgent } from '../agents/agents.presenter.js';
import { AgentSchema } from '../agents/agents.schema.js';
import { InboxMembersBody, InboxMembersReplaceBody } from './inbox-members.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['inbox_members'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const InboxParams = Type.Object({ accountId: IdParam, inbox_id: IdParam });
const Payload = Type.Object({ payload: Type.Array(AgentSchema) });

export const inboxMembersRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.inboxMembers;

  app.get(
    `${A}/inbox_members/:inbox_id`,
    {
      schema: {
        tags,
        security,
        summary: 'List the agents of an inbox',
        params: InboxParams,
        response: { 200: Payload, ...errors },
      },
    },
    async (req) => ({ payload: (await svc.list(ctxOf(req), req.params.inbox_id)).map(presentAgent) }),
  );

  app.post(
    `${A}/inbox_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Add agents to an inbox (idempotent)',
        params: AccountParams,
        body: InboxMembersBody,
        response: { 200: Payload, ...errors },
      },
    },
    async (req) => ({
      payload: (await svc.add(ctxOf(req), Number(req.body.inbox_id), req.body.user_ids)).map(presentAgent),
    }),
  );

  app.patch(
    `${A}/inbox_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: "Replace an inbox's agents",
        params: AccountParams,
        body: InboxMembersReplaceBody,
        response: { 200: Payload, ...errors },
      },
    },
    async (req) => ({
      payload: (await svc.replace(ctxOf(req), Number(req.body.inbox_id), req.body.user_ids)).map(presentAgent),
    }),
  );

  app.delete(
    `${A}/inbox_members`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Remove agents from an inbox',
        params: AccountParams,
        body: InboxMembersBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.remove(ctxOf(req), Number(req.body.inbox_id), req.body.user_ids);
      return {};
    },
  );
};
