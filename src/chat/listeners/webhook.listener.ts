import type { EventListener } from '../../core/events/dispatcher.js';
import { enqueueDelivery } from '../../core/webhooks/deliveries.js';
import type { ChatDatabase } from '../db/schema.js';
import { subscriptionsOf } from '../modules/webhooks/webhooks.presenter.js';
import { WEBHOOK_EVENTS } from '../modules/webhooks/webhooks.schema.js';

const SUBSCRIBABLE = new Set<string>(WEBHOOK_EVENTS);

/**
 * Fans each subscribable event out to the account's webhooks that subscribe to it: one queued
 * delivery per webhook, written in the dispatch transaction (so exactly once per event). The body
 * is the event payload as recorded at the time of the change.
 */
export function webhookListener(): EventListener<ChatDatabase> {
  return {
    name: 'webhooks',
    async inTransaction(trx, event) {
      if (event.accountId === null || !SUBSCRIBABLE.has(event.name)) return;
      const webhooks = await trx
        .selectFrom('webhooks')
        .select(['id', 'url', 'subscriptions'])
        .where('account_id', '=', event.accountId)
        .execute();
      for (const webhook of webhooks) {
        if (!subscriptionsOf(webhook).includes(event.name)) continue;
        await enqueueDelivery(trx, {
          accountId: event.accountId,
          subscriberType: 'webhook',
          subscriberId: webhook.id,
          url: webhook.url,
          eventName: event.name,
          eventId: event.id,
          payload: event.payload,
        });
      }
    },
  };
}
