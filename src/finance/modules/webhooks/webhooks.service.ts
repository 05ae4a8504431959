import { notFound, unprocessable } from '../../../core/http/errors.js';
import { randomToken } from '../../../core/security/tokens.js';
import { listDeliveries } from '../../../core/webhooks/deliveries.js';
import { DestinationGuard, DestinationRefused } from '../../../core/webhooks/destination-guard.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { FinanceWebhook } from '../../db/schema.js';
import { FINANCE_WEBHOOK_EVENTS } from '../../events.js';
import * as repo from './webhooks.repository.js';
import type { WebhookCreateBody, WebhookUpdateBody } from './webhooks.schema.js';

const KNOWN = new Set<string>(FINANCE_WEBHOOK_EVENTS);

/**
 * The account's finance webhooks (administrators only) and their delivery log. Deliveries are
 * queued by the webhook listener and sent by core's DeliveryWorker (subscriber type `webhook`).
 */
export class WebhooksService {
  private readonly guard: DestinationGuard;

  constructor(private readonly deps: FinanceDeps) {
    this.guard = new DestinationGuard(deps.config.webhooks.allowedHosts);
  }

  /** 422 naming every unknown event; 422 for a URL that is not http(s) or whose literal host is refused. */
  private validate(body: WebhookUpdateBody): { url?: string; events?: string[] } {
    const out: { url?: string; events?: string[] } = {};
    if (body.events !== undefined) {
      const unknown = [...new Set(body.events.filter((e) => !KNOWN.has(e)))];
      if (unknown.length > 0) {
        throw unprocessable(
          `Unknown webhook events: ${unknown.join(', ')} (allowed: ${FINANCE_WEBHOOK_EVENTS.join(', ')})`,
          unknown.map((e) => ({ field: 'events', message: `${e} is not a finance webhook event` })),
        );
      }
      out.events = [...new Set(body.events)];
    }
    if (body.url !== undefined) {
      const url = body.url.trim();
      try {
        this.guard.checkUrl(url);
      } catch (err) {
        if (err instanceof DestinationRefused) throw unprocessable(`url ${err.message}`, [{ field: 'url', message: err.message }]);
        throw err;
      }
      out.url = url;
    }
    return out;
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db): Promise<FinanceWebhook> {
    const webhook = await repo.findWebhook(q, ctx.accountId, id);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  list(ctx: FinanceContext, page: { page: number; limit: number }) {
    return repo.listWebhooks(this.deps.db, ctx.accountId, { limit: page.limit, offset: (page.page - 1) * page.limit });
  }

  async create(ctx: FinanceContext, body: WebhookCreateBody): Promise<FinanceWebhook> {
    const { url, events } = this.validate(body);
    const now = Date.now();
    return this.deps.db.transaction().execute((trx) =>
      repo.insertWebhook(trx, {
        account_id: ctx.accountId,
        url: url!,
        events: JSON.stringify(events),
        secret: randomToken(32),
        created_at: now,
        updated_at: now,
      }),
    );
  }

  async update(ctx: FinanceContext, id: number, body: WebhookUpdateBody): Promise<FinanceWebhook> {
    const { url, events } = this.validate(body);
    const row = await this.deps.db.transaction().execute((trx) =>
      repo.updateWebhook(trx, ctx.accountId, id, {
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events: JSON.stringify(events) } : {}),
        updated_at: Date.now(),
      }),
    );
    if (!row) throw notFound('Webhook');
    return row;
  }

  /** Deletes the registration; its pending deliveries are cancelled when the worker reaches them. */
  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteWebhook(trx, ctx.accountId, id));
    if (!deleted) throw notFound('Webhook');
  }

  /** The signing secret of a webhook of any account (the delivery worker's lookup), or null once deleted. */
  async secretOf(id: number): Promise<string | null> {
    return (await repo.secretOf(this.deps.db, id)) ?? null;
  }

  /** The webhook's recent deliveries, newest first. */
  async deliveries(ctx: FinanceContext, id: number, page: { page: number; limit: number }) {
    const webhook = await this.get(ctx, id);
    return listDeliveries(this.deps.db, ctx.accountId, 'webhook', webhook.id, { limit: page.limit, offset: (page.page - 1) * page.limit });
  }
}
