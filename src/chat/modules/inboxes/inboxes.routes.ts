import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import { isAdmin } from '../../context.js';
import type { ChatRoutes } from '../../routes.js';
import { presentInbox } from './inboxes.presenter.js';
import { InboxCreateBody, InboxSchema, InboxUpdateBody } from './inboxes.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['inboxes'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const InboxParams = Type.Object({ accountId: IdParam, id: IdParam });

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
