import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentDelivery, presentWebhook } from './webhooks.presenter.js';
import {
  DeliveriesQuery,
  DeliverySchema,
  WebhookCreateBody,
  WebhookSchema,
  WebhookUpdateBody,
} from './webhooks.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['webhooks'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const WebhookParams = Type.Object({ accountId: IdParam, id: IdParam });
const One = Type.Object({ payload: Type.Object({ webhook: WebhookSchema }) });
/** Chatwoot's answer with the new webhook's id beside it (additive: docs/spec/decisions.md §1). */
const Created = Type.Object({ id: Type.Integer(), payload: Type.Object({ webhook: WebhookSchema }) });
const admin = { adminOnly: true, bodyKey: 'webhook' };
const DELIVERIES_PAGE = 25;

export const webhooksRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.webhooks;

  app.get(
    `${A}/webhooks`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'List webhooks',
        params: AccountParams,
        response: { 200: Type.Object({ payload: Type.Object({ webhooks: Type.Array(WebhookSchema) }) }), ...errors },
      },
    },
    async (req) => ({ payload: { webhooks: (await svc.list(ctxOf(req).accountId)).map((w) => presentWebhook(w)) } }),
  );

  app.post(
    `${A}/webhooks`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary:
          "Register a webhook; the response carries its signing secret, shown only this once, and its id at the top too (NooviChat's trigger node reads it there)",
        params: AccountParams,
        body: WebhookCreateBody,
        response: { 200: Created, ...errors },
      },
    },
    async (req) => {
      const { url, subscriptions, name } = req.body;
      const webhook = await svc.create(ctxOf(req).accountId, { url, events: subscriptions, name });
      return { id: webhook.id, payload: { webhook: presentWebhook(webhook, { withSecret: true }) } };
    },
  );

  app.get(
    `${A}/webhooks/:id`,
    {
      config: admin,
      schema: { tags, security, summary: 'Show a webhook', params: WebhookParams, response: { 200: One, ...errors } },
    },
    async (req) => ({ payload: { webhook: presentWebhook(await svc.get(ctxOf(req).accountId, req.params.id)) } }),
  );

  app.patch(
    `${A}/webhooks/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Update a webhook',
        params: WebhookParams,
        body: WebhookUpdateBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => {
      const { url, subscriptions, name } = req.body;
      return {
        payload: {
          webhook: presentWebhook(
            await svc.update(ctxOf(req).accountId, req.params.id, { url, events: subscriptions, name }),
          ),
        },
      };
    },
  );

  app.delete(
    `${A}/webhooks/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a webhook',
        params: WebhookParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req).accountId, req.params.id);
      return {};
    },
  );

  app.get(
    `${A}/webhooks/:id/deliveries`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Recent deliveries of a webhook, newest first (25 per page)',
        params: WebhookParams,
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
      const deliveries = await svc.deliveries(ctxOf(req).accountId, req.params.id, {
        limit: DELIVERIES_PAGE,
        offset: (page - 1) * DELIVERIES_PAGE,
      });
      return { meta: { current_page: page }, payload: deliveries.map(presentDelivery) };
    },
  );
};
