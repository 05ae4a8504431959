import type { EventListener } from '../../core/events/dispatcher.js';
import { toIso } from '../../core/time.js';
import { enqueueDelivery } from '../../core/webhooks/deliveries.js';
import type { FinanceDatabase } from '../db/schema.js';
import { FINANCE_WEBHOOK_EVENTS } from '../events.js';
import { eventsOf } from '../modules/webhooks/webhooks.presenter.js';
import { subscribersOf } from '../modules/webhooks/webhooks.repository.js';

const SUBSCRIBABLE = new Set<string>(FINANCE_WEBHOOK_EVENTS);

/**
 * Fans each finance webhook event out to the account's webhooks subscribed to it: one queued
 * delivery per webhook, written in the dispatch transaction (so exactly once per event). The body
 * is the envelope `{id, event, created_at, account_id, data}` (plus `changed_attributes` on
 * `transaction.updated`): `id` is the outbox event id, the rest as recorded with the change.
 * Internal events (bill.paid) are never sent.
 */
export function financeWebhookListener(): EventListener<FinanceDatabase> {
  return {
    name: 'finance-webhooks',
    async inTransaction(trx, event) {
      if (event.accountId === null || !SUBSCRIBABLE.has(event.name)) return;
      const webhooks = (await subscribersOf(trx, event.accountId)).filter((w) => eventsOf(w).includes(event.name));
      if (webhooks.length === 0) return;
      const recorded = event.payload;
      const payload = {
        id: String(event.id),
        event: event.name,
        created_at: typeof recorded.created_at === 'string' ? recorded.created_at : toIso(event.createdAt),
        account_id: String(event.accountId),
        data: recorded.data ?? null,
        ...(recorded.changed_attributes !== undefined ? { changed_attributes: recorded.changed_attributes } : {}),
      };
      for (const webhook of webhooks) {
        await enqueueDelivery(trx, {
          accountId: event.accountId,
          subscriberType: 'webhook',
          subscriberId: webhook.id,
          url: webhook.url,
          eventName: event.name,
          eventId: event.id,
          payload,
        });
      }
    },
  };
}
