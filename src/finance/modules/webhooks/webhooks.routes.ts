import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentDelivery, presentWebhook } from './webhooks.presenter.js';
import {
  DeliveryListSchema,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookListSchema,
  WebhookParams,
  WebhookSchema,
  WebhookUpdateBody,
} from './webhooks.schema.js';

const tags = ['webhooks'];
const P = '/api/v1/webhooks';
const admin = { access: 'admin' as const };

/** Finance webhooks of the current account and their delivery log; administrators only (agents 403). */
export const webhooksRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.webhooks;

  app.get(
    P,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'List the webhooks (oldest first; never their secrets)',
        querystring: WebhookListQuery,
        response: { 200: Envelope(WebhookListSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const { accountId } = ctxOf(req);
      const { page, limit } = req.query;
      const [rows, total] = await Promise.all([
        svc.list(accountId, { limit, offset: (page - 1) * limit }),
        svc.count(accountId),
      ]);
      return ok({ items: rows.map((w) => presentWebhook(w)), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.post(
    P,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Register a webhook; the answer carries its signing secret, shown only this once',
        body: WebhookCreateBody,
        response: { 201: Envelope(WebhookSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(
        ok(
          presentWebhook(await svc.create(ctxOf(req).accountId, { url: req.body.url, events: req.body.events }), {
            withSecret: true,
          }),
          'Webhook registered: keep the secret, it is not shown again',
        ),
      ),
  );

  app.get(
    `${P}/:id`,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Show a webhook',
        params: WebhookParams,
        response: { 200: Envelope(WebhookSchema), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ok(presentWebhook(await svc.get(ctxOf(req).accountId, req.params.id))),
  );

  app.patch(
    `${P}/:id`,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: "Change a webhook's url and/or events (the secret stays)",
        params: WebhookParams,
        body: WebhookUpdateBody,
        response: { 200: Envelope(WebhookSchema), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) =>
      ok(
        presentWebhook(
          await svc.update(ctxOf(req).accountId, req.params.id, { url: req.body.url, events: req.body.events }),
        ),
        'Webhook updated',
      ),
  );

  app.delete(
    `${P}/:id`,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a webhook (its pending deliveries are cancelled)',
        params: WebhookParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req).accountId, req.params.id);
      return ok(null, 'Webhook deleted');
    },
  );

  app.get(
    `${P}/:id/deliveries`,
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Recent deliveries of a webhook, newest first',
        params: WebhookParams,
        querystring: WebhookListQuery,
        response: { 200: Envelope(DeliveryListSchema), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      const { page, limit } = req.query;
      const rows = await svc.deliveries(ctxOf(req).accountId, req.params.id, { limit, offset: (page - 1) * limit });
      return ok({ items: rows.map(presentDelivery), page: req.query.page, limit: req.query.limit });
    },
  );
};
