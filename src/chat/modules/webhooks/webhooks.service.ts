import { listDeliveries } from '../../../core/webhooks/deliveries.js';
import { DestinationGuard, DestinationRefused } from '../../../core/webhooks/destination-guard.js';
import { notFound, unprocessable } from '../../../core/http/errors.js';
import { randomToken } from '../../../core/security/tokens.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { Webhook } from '../../db/schema.js';
import * as repo from './webhooks.repository.js';
import { WEBHOOK_EVENTS, type WebhookCreateBody, type WebhookUpdateBody } from './webhooks.schema.js';

const DELIVERIES_PAGE = 25;

/** Outgoing webhook registrations of an account, and their delivery log. */
export class WebhooksService {
  private readonly guard: DestinationGuard;

  constructor(private readonly deps: ChatDeps) {
    this.guard = new DestinationGuard(deps.config.webhooks.allowedHosts);
  }

  /** 422 naming every unknown event, and an http(s) URL whose literal host is allowed. */
  private validate(body: WebhookUpdateBody) {
    if (body.subscriptions) {
      const unknown = body.subscriptions.filter((s) => !(WEBHOOK_EVENTS as readonly string[]).includes(s));
      if (unknown.length > 0) {
        throw unprocessable(`Unknown webhook events: ${unknown.join(', ')} (allowed: ${WEBHOOK_EVENTS.join(', ')})`, unknown.map((u) => ({ field: 'subscriptions', message: `${u} is not an event` })));
      }
    }
    if (body.url !== undefined) {
      try {
        this.guard.checkUrl(body.url);
      } catch (err) {
        if (err instanceof DestinationRefused) throw unprocessable(`url ${err.message}`, [{ field: 'url', message: err.message }]);
        throw err;
      }
    }
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<Webhook> {
    const webhook = await repo.findWebhook(q, ctx.accountId, id);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  list(ctx: AccountContext) {
    return repo.listWebhooks(this.deps.db, ctx.accountId);
  }

  async create(ctx: AccountContext, body: WebhookCreateBody): Promise<Webhook> {
    this.validate(body);
    const now = Date.now();
    return repo.insertWebhook(this.deps.db, {
      account_id: ctx.accountId,
      name: body.name ?? null,
      url: body.url,
      subscriptions: JSON.stringify([...new Set(body.subscriptions)]),
      secret: randomToken(32),
      created_at: now,
      updated_at: now,
    });
  }

  async update(ctx: AccountContext, id: number, body: WebhookUpdateBody): Promise<Webhook> {
    this.validate(body);
    return this.deps.db.transaction().execute(async (trx) => {
      const webhook = await this.get(ctx, id, trx);
      const updated = await repo.updateWebhook(trx, ctx.accountId, webhook.id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.subscriptions !== undefined ? { subscriptions: JSON.stringify([...new Set(body.subscriptions)]) } : {}),
        updated_at: Date.now(),
      });
      return updated ?? webhook;
    });
  }

  /** Deletes the registration; its pending deliveries are cancelled when the worker reaches them. */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const webhook = await this.get(ctx, id, trx);
      await repo.deleteWebhook(trx, ctx.accountId, webhook.id);
    });
  }

  /** The signing secret of a webhook of any account (the delivery worker's lookup), or null if gone. */
  async secretOf(id: number): Promise<string | null> {
    return (await repo.secretOf(this.deps.db, id)) ?? null;
  }

  async deliveries(ctx: AccountContext, id: number, page: number) {
    const webhook = await this.get(ctx, id);
    return listDeliveries(this.deps.db, ctx.accountId, 'webhook', webhook.id, {
      limit: DELIVERIES_PAGE,
      offset: (page - 1) * DELIVERIES_PAGE,
    });
  }
}
